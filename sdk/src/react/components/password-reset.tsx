/**
 * The password-reset page (the emailed link lands here with ?code=). The code is checked first
 * without using it (a mail scanner opening the link does not spend it), so an expired or used
 * link says so; the form is shown meanwhile, its button waiting for the check.
 */
import { type FormEvent, useEffect, useState } from "react";
import { useStackApp } from "../provider";
import { AuthCard } from "./auth-card";
import { LinkProblemBody } from "./code-landing";
import { codeFromSearch, errorCodeOf, INVALID_LINK, type LinkProblem, linkProblem, messageOf } from "./code-messages";
import { checkNewPassword } from "./credential-errors";
import { Field, FormAlert } from "./field";

type State = { step: "checking" } | { step: "invalid"; problem: LinkProblem } | { step: "form" } | { step: "done" };

/**
 * @example
 * <StackProvider app={app}><PasswordReset search={window.location.search} /></StackProvider>
 */
export function PasswordReset({ search }: { search: string }) {
  const app = useStackApp();
  const code = codeFromSearch(search);
  const [state, setState] = useState<State>(code ? { step: "checking" } : { step: "invalid", problem: INVALID_LINK });
  const [round, setRound] = useState(0);
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [errors, setErrors] = useState<{ password?: string; repeat?: string; form?: string }>({});
  const [pending, setPending] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` re-runs the check on "Try again".
  useEffect(() => {
    if (!code) return;
    let live = true;
    app.verifyPasswordResetCode(code).then(
      (result) => {
        if (!live) return;
        setState(result.status === "ok" ? { step: "form" } : { step: "invalid", problem: linkProblem(result.error, "password-reset") });
      },
      (error: unknown) => live && setState({ step: "invalid", problem: linkProblem(error, "password-reset") }),
    );
    return () => {
      live = false;
    };
  }, [app, code, round]);

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
        const problem = linkProblem(result.error, "password-reset");
        if (errorCodeOf(result.error)?.startsWith("VERIFICATION_CODE_")) setState({ step: "invalid", problem });
        else setErrors({ password: problem.message });
      }
    } catch (error) {
      setErrors({ form: messageOf(error) });
    }
    setPending(false);
  };

  if (state.step === "invalid") {
    return (
      <AuthCard title="Reset your password">
        <LinkProblemBody
          problem={state.problem}
          kind="password-reset"
          onRetry={() => {
            setState({ step: "checking" });
            setRound((n) => n + 1);
          }}
        />
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
        <button
          className="stack-button"
          type="submit"
          disabled={pending || state.step === "checking"}
          aria-busy={state.step === "checking"}
        >
          {pending ? "Saving…" : "Set new password"}
        </button>
      </form>
    </AuthCard>
  );
}
