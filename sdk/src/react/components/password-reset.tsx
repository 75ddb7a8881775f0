/**
 * The password-reset page (the emailed link lands here with ?code=). The code is checked first,
 * so an expired or used link says so before asking for a password.
 */
import { type FormEvent, useEffect, useState } from "react";
import { useStackApp } from "../provider";
import { AuthCard } from "./auth-card";
import { codeErrorMessage, codeFromSearch, errorCodeOf, messageOf } from "./code-messages";
import { checkNewPassword } from "./credential-errors";
import { Field, FormAlert } from "./field";

type State = { step: "checking" } | { step: "invalid"; message: string } | { step: "form" } | { step: "done" };

/**
 * @example
 * <StackProvider app={app}><PasswordReset search={window.location.search} /></StackProvider>
 */
export function PasswordReset({ search }: { search: string }) {
  const app = useStackApp();
  const code = codeFromSearch(search);
  const [state, setState] = useState<State>(
    code ? { step: "checking" } : { step: "invalid", message: "This reset link is not valid. Ask for a new one." },
  );
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [errors, setErrors] = useState<{ password?: string; repeat?: string; form?: string }>({});
  const [pending, setPending] = useState(false);

  useEffect(() => {
    if (!code) return;
    let live = true;
    app.verifyPasswordResetCode(code).then(
      (result) => {
        if (!live) return;
        if (result.status === "ok") setState({ step: "form" });
        else setState({ step: "invalid", message: codeErrorMessage(errorCodeOf(result.error)) ?? result.error.message });
      },
      (error: unknown) => live && setState({ step: "invalid", message: messageOf(error) }),
    );
    return () => {
      live = false;
    };
  }, [app, code]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next = { password: checkNewPassword(password) ?? undefined, repeat: repeat === password ? undefined : "Passwords do not match." };
    setErrors(next);
    if (next.password || next.repeat || !code) return;
    setPending(true);
    try {
      const result = await app.resetPassword({ code, password });
      if (result.status === "ok") setState({ step: "done" });
      else {
        const known = codeErrorMessage(errorCodeOf(result.error));
        if (known) setState({ step: "invalid", message: known });
        else setErrors({ password: result.error.message });
      }
    } catch (error) {
      setErrors({ form: messageOf(error) });
    }
    setPending(false);
  };

  if (state.step === "checking") return <AuthCard title="Reset your password" subtitle="Checking your link…" />;
  if (state.step === "invalid") {
    return (
      <AuthCard title="Reset your password">
        <p className="stack-alert" role="alert">
          {state.message}
        </p>
        <a className="stack-button stack-secondary" href={app.urls.forgotPassword ?? app.urls.signIn}>
          Ask for a new link
        </a>
      </AuthCard>
    );
  }
  if (state.step === "done") {
    return (
      <AuthCard title="Password changed" subtitle="Your password was reset and your other sessions were signed out.">
        <a className="stack-button" href={app.urls.signIn}>
          Sign in
        </a>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Choose a new password">
      <form className="stack-form" noValidate onSubmit={onSubmit} aria-label="Choose a new password">
        <FormAlert message={errors.form} />
        <Field
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          autoFocus
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
          hint="8 to 70 characters."
        />
        <Field
          label="Repeat new password"
          name="repeat"
          type="password"
          autoComplete="new-password"
          value={repeat}
          onChange={(e) => setRepeat(e.target.value)}
          error={errors.repeat}
        />
        <button className="stack-button" type="submit" disabled={pending}>
          {pending ? "Saving…" : "Set new password"}
        </button>
      </form>
    </AuthCard>
  );
}
