/** The mfa handler page: the second step of a sign-in for users with TOTP. */
import { type FormEvent, useState } from "react";
import { useStackApp } from "../provider";
import { AuthCard } from "./auth-card";
import { codeErrorMessage, errorCodeOf, messageOf } from "./code-messages";
import { Field, FormAlert } from "./field";

/**
 * @example
 * <StackProvider app={app}><MfaPage /></StackProvider>
 */
export function MfaPage() {
  const app = useStackApp();
  const [code, setCode] = useState("");
  const [errors, setErrors] = useState<{ code?: string; form?: string }>({});
  const [pending, setPending] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code.trim())) return setErrors({ code: "Enter the 6-digit code from your authenticator app." });
    setPending(true);
    setErrors({});
    try {
      const result = await app.signInWithMfa(code.trim());
      if (result.status === "error") {
        const known = errorCodeOf(result.error);
        if (known === "INVALID_TOTP_CODE") setErrors({ code: "That code is not right. Check your authenticator app and try again." });
        else setErrors({ form: codeErrorMessage(known, "sign-in attempt") ?? result.error.message });
        setPending(false);
      }
    } catch (error) {
      setErrors({ form: messageOf(error, "Sign in again: this sign-in is no longer waiting for a code.") });
      setPending(false);
    }
  };

  return (
    <AuthCard
      title="Two-factor authentication"
      subtitle="Enter the 6-digit code from your authenticator app."
      footer={
        <a className="stack-link" href={app.urls.signIn}>
          Back to sign in
        </a>
      }
    >
      <form className="stack-form" noValidate onSubmit={onSubmit} aria-label="Two-factor code">
        <FormAlert message={errors.form} />
        <Field
          label="Code"
          name="totp"
          inputMode="numeric"
          autoComplete="one-time-code"
          autoFocus
          maxLength={6}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={errors.code}
        />
        <button className="stack-button" type="submit" disabled={pending}>
          {pending ? "Checking…" : "Verify"}
        </button>
      </form>
    </AuthCard>
  );
}
