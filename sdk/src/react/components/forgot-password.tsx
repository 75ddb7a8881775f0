/** The forgot-password page: ask for a reset link. The answer never reveals whether the address has an account. */
import { type FormEvent, useState } from "react";
import { useTranslation } from "../i18n/context";
import { useStackApp } from "../provider";
import { AuthCard } from "./auth-card";
import { emailLinkErrorMessage } from "./code-messages";
import { checkEmail } from "./credential-errors";
import { Field, FormAlert } from "./field";

/**
 * @example
 * <StackProvider app={app}><ForgotPassword /></StackProvider>
 */
export function ForgotPassword() {
  const app = useStackApp();
  const { t } = useTranslation();
  const [email, setEmail] = useState("");
  const [errors, setErrors] = useState<{ email?: string; form?: string }>({});
  const [pending, setPending] = useState(false);
  const [sent, setSent] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = checkEmail(email, t);
    setErrors(problem ? { email: problem } : {});
    if (problem) return;
    setPending(true);
    try {
      const result = await app.sendForgotPasswordEmail(email.trim());
      if (result.status === "error") setErrors({ form: emailLinkErrorMessage(result.error, app.urls.passwordReset, t) });
      else setSent(true);
    } catch (error) {
      setErrors({ form: emailLinkErrorMessage(error, app.urls.passwordReset, t) });
    }
    setPending(false);
  };

  if (sent) {
    return (
      <AuthCard title={t("forgot.sentTitle")} subtitle={t("forgot.sentSubtitle", { email: email.trim() })}>
        <a className="stack-button stack-secondary" href={app.urls.signIn}>
          {t("common.backToSignIn")}
        </a>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title={t("forgot.title")}
      subtitle={t("forgot.subtitle")}
      footer={
        <a className="stack-link" href={app.urls.signIn}>
          {t("common.backToSignIn")}
        </a>
      }
    >
      <form className="stack-form" noValidate onSubmit={onSubmit} aria-label={t("forgot.formLabel")}>
        <FormAlert message={errors.form} />
        <Field
          label={t("common.email")}
          name="email"
          type="email"
          autoComplete="email"
          autoFocus
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={errors.email}
        />
        <button className="stack-button" type="submit" disabled={pending}>
          {pending ? t("common.sending") : t("forgot.submit")}
        </button>
      </form>
    </AuthCard>
  );
}
