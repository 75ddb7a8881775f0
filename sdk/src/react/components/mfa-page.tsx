/**
 * The mfa handler page: the second step of a sign-in for users with TOTP (a code from the app, or
 * one of their recovery codes), and, when the project requires a second factor and the user has
 * none yet (Doorman), the TOTP set-up that finishes the sign-in and shows the recovery codes once.
 * A user whose second factor is a passkey is asked to sign in with it instead.
 */
import { createTOTPKeyURI } from "@oslojs/otp";
import { type FormEvent, useState } from "react";
import { storedMfaEnrollment, storedMfaPasskeyRequired } from "../../apps/mfa";
import { useTranslation } from "../i18n/context";
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
  const { t } = useTranslation();
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
    if (mode !== "recovery" && !/^\d{6}$/.test(value)) return setErrors({ code: t("mfaPage.enterTotp") });
    if (mode === "recovery" && value.length < 12) return setErrors({ code: t("mfaPage.enterRecovery") });
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
        if (known === "INVALID_TOTP_CODE") setErrors({ code: mode === "recovery" ? t("mfaPage.wrongRecovery") : t("mfaPage.wrongTotp") });
        else setErrors({ form: codeErrorMessage(known, "signInAttempt", t) ?? result.error.message });
        setPending(false);
      } else if (Array.isArray(result.data)) setRecoveryCodes(result.data);
    } catch (error) {
      setErrors({ form: messageOf(error, t("mfaPage.expired")) });
      setPending(false);
    }
  };

  if (passkeyOnly) {
    return (
      <AuthCard
        title={t("mfaPage.passkeyTitle")}
        subtitle={t("mfaPage.passkeySubtitle")}
        footer={
          <a className="stack-link" href={app.urls.signIn}>
            {t("common.backToSignIn")}
          </a>
        }
      >
        <PasskeySignInButton />
      </AuthCard>
    );
  }

  if (recoveryCodes) {
    return (
      <AuthCard title={t("mfaPage.onTitle")} subtitle={t("mfaPage.onSubtitle")}>
        <RecoveryCodeList codes={recoveryCodes} />
        <a className="stack-button" href={app.urls.afterSignIn}>
          {t("common.continue")}
        </a>
      </AuthCard>
    );
  }

  const uri = createTOTPKeyURI(typeof window === "undefined" ? "" : window.location.host, "account", secret, 30, 6);
  return (
    <AuthCard
      title={mode === "enroll" ? t("mfaPage.enrollTitle") : t("mfaPage.title")}
      subtitle={
        mode === "enroll" ? t("mfaPage.enrollSubtitle") : mode === "recovery" ? t("mfaPage.recoverySubtitle") : t("mfaPage.subtitle")
      }
      footer={
        <a className="stack-link" href={app.urls.signIn}>
          {t("common.backToSignIn")}
        </a>
      }
    >
      <form className="stack-form" noValidate onSubmit={onSubmit} aria-label={t("mfaPage.formLabel")}>
        <FormAlert message={errors.form} />
        {mode === "enroll" && (
          <>
            <TotpQrCode uri={uri} />
            <p>
              <a className="stack-link" href={uri}>
                {t("common.openAuthenticator")}
              </a>
            </p>
          </>
        )}
        <Field
          label={mode === "recovery" ? t("mfaPage.recoveryCode") : t("common.code")}
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
          {pending ? t("mfaPage.checking") : mode === "enroll" ? t("mfaPage.enrollSubmit") : t("mfaPage.verify")}
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
            {mode === "totp" ? t("mfaPage.useRecovery") : t("mfaPage.useApp")}
          </button>
        )}
      </form>
    </AuthCard>
  );
}
