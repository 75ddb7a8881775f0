/**
 * The password-reset page (the emailed link lands here with ?code=). The code is checked first
 * without using it (a mail scanner opening the link does not spend it), so an expired or used
 * link says so; the form is shown meanwhile, its button waiting for the check.
 */
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "../i18n/context";
import { useStackApp } from "../provider";
import { AuthCard } from "./auth-card";
import { LinkProblemBody } from "./code-landing";
import { codeFromSearch, errorCodeOf, invalidLink, type LinkProblem, linkProblem, messageOf } from "./code-messages";
import { checkNewPassword, localizedPasswordError, passwordHint } from "./credential-errors";
import { Field, FormAlert } from "./field";

type State = { step: "checking" } | { step: "invalid"; problem: LinkProblem } | { step: "form" } | { step: "done" };

/**
 * @example
 * <StackProvider app={app}><PasswordReset search={window.location.search} /></StackProvider>
 */
export function PasswordReset({ search }: { search: string }) {
  const app = useStackApp();
  const { t } = useTranslation();
  const code = codeFromSearch(search);
  const [state, setState] = useState<State>(code ? { step: "checking" } : { step: "invalid", problem: invalidLink(t) });
  const [round, setRound] = useState(0);
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [errors, setErrors] = useState<{ password?: string; repeat?: string; form?: string }>({});
  const [pending, setPending] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` re-runs the check on "Try again"; a change of language (`t`) must not re-check.
  useEffect(() => {
    if (!code) return;
    let live = true;
    app.verifyPasswordResetCode(code).then(
      (result) => {
        if (!live) return;
        setState(result.status === "ok" ? { step: "form" } : { step: "invalid", problem: linkProblem(result.error, "password-reset", t) });
      },
      (error: unknown) => live && setState({ step: "invalid", problem: linkProblem(error, "password-reset", t) }),
    );
    return () => {
      live = false;
    };
  }, [app, code, round]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next = {
      password: checkNewPassword(password, t) ?? undefined,
      repeat: repeat === password ? undefined : t("common.passwordsDoNotMatch"),
    };
    setErrors(next);
    if (next.password || next.repeat || !code) return;
    setPending(true);
    try {
      const result = await app.resetPassword({ code, password });
      if (result.status === "ok") setState({ step: "done" });
      else {
        const problem = linkProblem(result.error, "password-reset", t);
        const code = errorCodeOf(result.error) ?? "";
        if (code.startsWith("VERIFICATION_CODE_")) setState({ step: "invalid", problem });
        else setErrors({ password: localizedPasswordError(code, t) ?? problem.message });
      }
    } catch (error) {
      setErrors({ form: messageOf(error, t("common.somethingWrong")) });
    }
    setPending(false);
  };

  if (state.step === "invalid") {
    return (
      <AuthCard title={t("reset.title")}>
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
      <AuthCard title={t("reset.doneTitle")} subtitle={t("reset.doneSubtitle")}>
        <a className="stack-button" href={app.urls.signIn}>
          {t("common.signIn")}
        </a>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t("reset.formTitle")}>
      <form className="stack-form" noValidate onSubmit={onSubmit} aria-label={t("reset.formTitle")}>
        <FormAlert message={errors.form} />
        <Field
          label={t("common.newPassword")}
          name="password"
          type="password"
          autoComplete="new-password"
          autoFocus
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
          hint={passwordHint(t)}
        />
        <Field
          label={t("common.repeatNewPassword")}
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
          {pending ? t("common.saving") : t("reset.submit")}
        </button>
      </form>
    </AuthCard>
  );
}
