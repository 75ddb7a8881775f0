/**
 * The sign-in page's enterprise SSO step (issue 31): the work email first; `lookupSso` says whether
 * the email's organization set up SSO, and if so the browser goes to its identity provider
 * (`signInWithSso`), coming back through the oauth-callback page. With `connectionId` (the
 * IdP-initiated bounce, `?sso_connection_id=`) the sign-in of that connection starts at once.
 */
import { type FormEvent, useEffect, useRef, useState } from "react";
import type { SsoTarget } from "../../apps/sso";
import { useTranslation } from "../i18n/context";
import { useStackApp } from "../provider";
import { messageOf } from "./code-messages";
import { checkEmail } from "./credential-errors";
import { Field, FormAlert } from "./field";

export type SsoSignInProps = {
  /** The email already typed (a refused password or code sign-in). */
  initialEmail?: string;
  /** Why the page is here (SSO_REQUIRED, or the bounce), shown above the form. */
  notice?: string;
  /** Start this connection's sign-in at once. */
  connectionId?: string | null;
  /** Back to the other sign-in methods. */
  onBack: () => void;
};

/**
 * @example
 * <SsoSignIn onBack={() => setMode("password")} />
 */
export function SsoSignIn({ initialEmail = "", notice, connectionId, onBack }: SsoSignInProps) {
  const app = useStackApp();
  const { t } = useTranslation();
  const [email, setEmail] = useState(initialEmail);
  const [errors, setErrors] = useState<{ email?: string; form?: string }>({});
  const [pending, setPending] = useState(false);

  /** Goes to the IdP (navigates away: stays pending), or shows why not. */
  const start = async (target: SsoTarget, lookup: boolean) => {
    setPending(true);
    try {
      if (lookup && "email" in target && !(await app.lookupSso(target.email)).connectionId) {
        setErrors({ email: t("sso.notConfigured") });
        setPending(false);
        return;
      }
      await app.signInWithSso(target);
    } catch (error) {
      setErrors({ form: messageOf(error, t("common.somethingWrong")) });
      setPending(false);
    }
  };
  const started = useRef(false);
  useEffect(() => {
    // Once per mount (StrictMode runs effects twice): each start stores a one-time request.
    if (!connectionId || started.current) return;
    started.current = true;
    void start({ connectionId }, false);
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = checkEmail(email, t);
    setErrors(problem ? { email: problem } : {});
    if (!problem) void start({ email: email.trim() }, true);
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
