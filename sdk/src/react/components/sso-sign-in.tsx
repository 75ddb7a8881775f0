/**
 * The sign-in page's enterprise SSO step (issue 31): the work email first; `lookupSso` says whether
 * the email's organization set up SSO, and if so the browser goes to its identity provider
 * (`signInWithSso`), coming back through the oauth-callback page. `SsoConnectionStart` is the
 * IdP-initiated bounce (`?sso_connection_id=`): a sign-in for that connection starts at once.
 */
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "../i18n/context";
import { useStackApp } from "../provider";
import { messageOf } from "./code-messages";
import { checkEmail } from "./credential-errors";
import { Field, FormAlert } from "./field";

export type SsoSignInProps = {
  /** The email already typed (a refused password or code sign-in). */
  initialEmail?: string;
  /** Why the page moved here (SSO_REQUIRED), shown above the form. */
  notice?: string;
  /** Back to the other sign-in methods. */
  onBack: () => void;
};

/**
 * @example
 * <SsoSignIn onBack={() => setMode("password")} />
 */
export function SsoSignIn({ initialEmail = "", notice, onBack }: SsoSignInProps) {
  const app = useStackApp();
  const { t } = useTranslation();
  const [email, setEmail] = useState(initialEmail);
  const [errors, setErrors] = useState<{ email?: string; form?: string }>({});
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = checkEmail(email, t);
    setErrors(problem ? { email: problem } : {});
    if (problem) return;
    setPending(true);
    try {
      const found = await app.lookupSso(email.trim());
      if (!found.connectionId) {
        setErrors({ email: t("sso.notConfigured") });
        setPending(false);
        return;
      }
      await app.signInWithSso({ email: email.trim() }); // navigates away: stays pending
    } catch (error) {
      setErrors({ form: messageOf(error, t("common.somethingWrong")) });
      setPending(false);
    }
  };

  return (
    <form className="stack-form" noValidate onSubmit={submit} aria-label={t("sso.title")}>
      {notice ? (
        <p className="stack-hint" role="status">
          {notice}
        </p>
      ) : null}
      <FormAlert message={errors.form} />
      <Field
        label={t("sso.workEmail")}
        name="email"
        type="email"
        autoComplete="email"
        autoFocus
        value={email}
        onChange={(e) => {
          setEmail(e.target.value);
          setErrors({});
        }}
        error={errors.email}
      />
      <button className="stack-button" type="submit" disabled={pending}>
        {pending ? t("sso.redirecting") : t("common.continue")}
      </button>
      <button type="button" className="stack-link stack-switch" onClick={onBack}>
        {t("sso.otherMethods")}
      </button>
    </form>
  );
}

/** Starts the SSO sign-in of one connection as soon as it renders (the IdP-initiated bounce). */
export function SsoConnectionStart({ connectionId, onBack }: { connectionId: string; onBack: () => void }) {
  const app = useStackApp();
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);
  useEffect(() => {
    // Once per mount (StrictMode runs effects twice): each start stores a one-time request.
    if (started.current) return;
    started.current = true;
    app.signInWithSso({ connectionId }).catch((e: unknown) => setError(`${t("sso.startFailed")} ${messageOf(e, "")}`.trim()));
  }, [app, connectionId, t]);
  if (!error)
    return (
      <p className="stack-hint" role="status">
        {t("sso.starting")}
      </p>
    );
  return (
    <div className="stack-form">
      <FormAlert message={error} />
      <button type="button" className="stack-link stack-switch" onClick={onBack}>
        {t("sso.otherMethods")}
      </button>
    </div>
  );
}
