/**
 * Sign-in by emailed code: the email address first, then the 6-character code from the email
 * (or the link in it). The code typed is the OTP; the SDK adds the nonce it kept.
 */
import { type FormEvent, useState } from "react";
import { ssoRequiredConnectionId } from "../../apps/sso";
import { useTranslation } from "../i18n/context";
import { useStackApp } from "../provider";
import { codeErrorMessage, emailLinkErrorMessage, errorCodeOf, messageOf } from "./code-messages";
import { checkEmail } from "./credential-errors";
import { Field, FormAlert } from "./field";

/**
 * @example
 * <StackProvider app={app}><MagicLinkSignIn /></StackProvider>
 */
export function MagicLinkSignIn({ onSsoRequired }: { onSsoRequired?: (email: string) => void } = {}) {
  const app = useStackApp();
  const { t } = useTranslation();
  const [email, setEmail] = useState("");
  const [nonce, setNonce] = useState<string | null>(null);
  const [otp, setOtp] = useState("");
  const [errors, setErrors] = useState<{ email?: string; otp?: string; form?: string }>({});
  const [pending, setPending] = useState(false);

  const send = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = checkEmail(email, t);
    setErrors(problem ? { email: problem } : {});
    if (problem) return;
    setPending(true);
    try {
      const result = await app.sendMagicLinkEmail(email.trim());
      // The email's organization requires SSO (issue 31): the page moves to its SSO step.
      if (result.status === "error" && onSsoRequired && ssoRequiredConnectionId(result.error) !== undefined) onSsoRequired(email.trim());
      else if (result.status === "error") setErrors({ form: emailLinkErrorMessage(result.error, app.urls.magicLinkCallback, t) });
      else setNonce(result.data?.nonce ?? null);
    } catch (error) {
      setErrors({ form: emailLinkErrorMessage(error, app.urls.magicLinkCallback, t) });
    }
    setPending(false);
  };

  const verify = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = otp.trim();
    if (!/^[A-Za-z0-9]{6}$/.test(typed)) {
      setErrors({ otp: t("magicLink.enterCode") });
      return;
    }
    setPending(true);
    setErrors({});
    try {
      const result = await app.signInWithMagicLink(`${typed.toLowerCase()}${nonce}`);
      if (result.status === "error") {
        const code = errorCodeOf(result.error);
        const message = codeErrorMessage(code, "code", t);
        setErrors(
          message && code !== "VERIFICATION_CODE_EXPIRED" && code !== "VERIFICATION_CODE_ALREADY_USED"
            ? { otp: message }
            : { form: message ?? result.error.message },
        );
        setPending(false);
      }
    } catch (error) {
      setErrors({ form: messageOf(error, t("common.somethingWrong")) });
      setPending(false);
    }
  };

  if (nonce === null) {
    return (
      <form className="stack-form" noValidate onSubmit={send} aria-label={t("magicLink.send")}>
        <FormAlert message={errors.form} />
        <Field
          label={t("common.email")}
          name="email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={errors.email}
        />
        <button className="stack-button" type="submit" disabled={pending}>
          {pending ? t("common.sending") : t("magicLink.send")}
        </button>
      </form>
    );
  }
  return (
    <form className="stack-form" noValidate onSubmit={verify} aria-label={t("magicLink.codeFormLabel")}>
      <p className="stack-hint" role="status">
        {t("magicLink.sent", { email: email.trim() })}
      </p>
      <FormAlert message={errors.form} />
      <Field
        label={t("common.code")}
        name="otp"
        autoComplete="one-time-code"
        inputMode="text"
        maxLength={6}
        value={otp}
        onChange={(e) => setOtp(e.target.value.toUpperCase())}
        error={errors.otp}
      />
      <button className="stack-button" type="submit" disabled={pending}>
        {pending ? t("common.signingIn") : t("common.signIn")}
      </button>
      <button
        className="stack-button stack-secondary"
        type="button"
        onClick={() => {
          setNonce(null);
          setOtp("");
          setErrors({});
        }}
      >
        {t("magicLink.otherEmail")}
      </button>
    </form>
  );
}
