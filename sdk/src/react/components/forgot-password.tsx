/** The forgot-password page: ask for a reset link. The answer never reveals whether the address has an account. */
import { type FormEvent, useState } from "react";
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
  const [email, setEmail] = useState("");
  const [errors, setErrors] = useState<{ email?: string; form?: string }>({});
  const [pending, setPending] = useState(false);
  const [sent, setSent] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = checkEmail(email);
    setErrors(problem ? { email: problem } : {});
    if (problem) return;
    setPending(true);
    try {
      const result = await app.sendForgotPasswordEmail(email.trim());
      if (result.status === "error") setErrors({ form: emailLinkErrorMessage(result.error, app.urls.passwordReset) });
      else setSent(true);
    } catch (error) {
      setErrors({ form: emailLinkErrorMessage(error, app.urls.passwordReset) });
    }
    setPending(false);
  };

  if (sent) {
    return (
      <AuthCard title="Check your email" subtitle={`If ${email.trim()} has an account, we sent it a link to choose a new password.`}>
        <a className="stack-button stack-secondary" href={app.urls.signIn}>
          Back to sign in
        </a>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Forgot your password?"
      subtitle="Enter your email and we will send you a link to choose a new one."
      footer={
        <a className="stack-link" href={app.urls.signIn}>
          Back to sign in
        </a>
      }
    >
      <form className="stack-form" noValidate onSubmit={onSubmit} aria-label="Forgot password">
        <FormAlert message={errors.form} />
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          autoFocus
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={errors.email}
        />
        <button className="stack-button" type="submit" disabled={pending}>
          {pending ? "Sending…" : "Send reset link"}
        </button>
      </form>
    </AuthCard>
  );
}
