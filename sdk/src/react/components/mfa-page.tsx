/**
 * The mfa handler page: the second step of a sign-in for users with TOTP (a code from the app, or
 * one of their recovery codes), and, when the project requires a second factor and the user has
 * none yet (Doorman), the TOTP set-up that finishes the sign-in and shows the recovery codes once.
 * A user whose second factor is a passkey is asked to sign in with it instead.
 */
import { createTOTPKeyURI } from "@oslojs/otp";
import { type FormEvent, useState } from "react";
import { storedMfaEnrollment, storedMfaPasskeyRequired } from "../../apps/mfa";
import { useStackApp } from "../provider";
import { AuthCard } from "./auth-card";
import { codeErrorMessage, errorCodeOf, messageOf } from "./code-messages";
import { Field, FormAlert } from "./field";
import { RecoveryCodeList, TotpQrCode } from "./mfa-section";
import { PasskeySignInButton } from "./passkey-sign-in-button";

type Mode = "totp" | "recovery" | "enroll";

/**
 * @example
 * <StackProvider app={app}><MfaPage /></StackProvider>
 */
export function MfaPage() {
  const app = useStackApp();
  const [mode, setMode] = useState<Mode>(() => (typeof window !== "undefined" && storedMfaEnrollment() ? "enroll" : "totp"));
  const [secret] = useState(() => crypto.getRandomValues(new Uint8Array(20)));
  const [code, setCode] = useState("");
  const [errors, setErrors] = useState<{ code?: string; form?: string }>({});
  const [pending, setPending] = useState(false);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [passkeyOnly] = useState(() => typeof window !== "undefined" && storedMfaPasskeyRequired());

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = code.trim();
    if (mode !== "recovery" && !/^\d{6}$/.test(value)) return setErrors({ code: "Enter the 6-digit code from your authenticator app." });
    if (mode === "recovery" && value.length < 12) return setErrors({ code: "Enter one of your recovery codes." });
    setPending(true);
    setErrors({});
    try {
      const result =
        mode === "enroll"
          ? await app.enrollMfa(secret, value, { noRedirect: true })
          : mode === "recovery"
            ? await app.signInWithRecoveryCode(value)
            : await app.signInWithMfa(value);
      if (result.status === "error") {
        const known = errorCodeOf(result.error);
        if (known === "INVALID_TOTP_CODE")
          setErrors({
            code:
              mode === "recovery"
                ? "That recovery code is not right or was used already."
                : "That code is not right. Check your authenticator app and try again.",
          });
        else setErrors({ form: codeErrorMessage(known, "sign-in attempt") ?? result.error.message });
        setPending(false);
      } else if (Array.isArray(result.data)) setRecoveryCodes(result.data);
    } catch (error) {
      setErrors({ form: messageOf(error, "Sign in again: this sign-in is no longer waiting for a code.") });
      setPending(false);
    }
  };

  if (passkeyOnly) {
    return (
      <AuthCard
        title="Sign in with your passkey"
        subtitle="This app requires a second factor, and yours is a passkey: sign in with it to continue."
        footer={
          <a className="stack-link" href={app.urls.signIn}>
            Back to sign in
          </a>
        }
      >
        <PasskeySignInButton />
      </AuthCard>
    );
  }

  if (recoveryCodes) {
    return (
      <AuthCard title="Two-factor authentication is on" subtitle="One more step: keep your recovery codes.">
        <RecoveryCodeList codes={recoveryCodes} />
        <a className="stack-button" href={app.urls.afterSignIn}>
          Continue
        </a>
      </AuthCard>
    );
  }

  const uri = createTOTPKeyURI(typeof window === "undefined" ? "" : window.location.host, "account", secret, 30, 6);
  return (
    <AuthCard
      title={mode === "enroll" ? "Set up two-factor authentication" : "Two-factor authentication"}
      subtitle={
        mode === "enroll"
          ? "This app requires a second factor. Scan the code with your authenticator app, then enter the code it shows."
          : mode === "recovery"
            ? "Enter one of the recovery codes you saved. Each works once."
            : "Enter the 6-digit code from your authenticator app."
      }
      footer={
        <a className="stack-link" href={app.urls.signIn}>
          Back to sign in
        </a>
      }
    >
      <form className="stack-form" noValidate onSubmit={onSubmit} aria-label="Two-factor code">
        <FormAlert message={errors.form} />
        {mode === "enroll" && (
          <>
            <TotpQrCode uri={uri} />
            <p>
              <a className="stack-link" href={uri}>
                Open in an authenticator app
              </a>
            </p>
          </>
        )}
        <Field
          label={mode === "recovery" ? "Recovery code" : "Code"}
          name={mode === "recovery" ? "recoveryCode" : "totp"}
          inputMode={mode === "recovery" ? "text" : "numeric"}
          autoComplete="one-time-code"
          autoFocus
          maxLength={mode === "recovery" ? 32 : 6}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={errors.code}
        />
        <button className="stack-button" type="submit" disabled={pending}>
          {pending ? "Checking…" : mode === "enroll" ? "Turn on and sign in" : "Verify"}
        </button>
        {mode !== "enroll" && (
          <button
            type="button"
            className="stack-link"
            onClick={() => {
              setMode(mode === "totp" ? "recovery" : "totp");
              setCode("");
              setErrors({});
            }}
          >
            {mode === "totp" ? "Use a recovery code" : "Use your authenticator app"}
          </button>
        )}
      </form>
    </AuthCard>
  );
}
