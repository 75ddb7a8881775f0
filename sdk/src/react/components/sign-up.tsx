/**
 * The sign-up page: email, password and its repetition, per-field errors (including
 * the server's "email already exists" and password-length errors), and a link to
 * sign-in that keeps `after_auth_return_to`. On success the SDK redirects to
 * after-sign-up (or the return target).
 */
import { useTranslation } from "../i18n/context";
import { useStackApp } from "../provider";
import { useUser } from "../use-user";
import { AuthCard } from "./auth-card";
import { BotChallengeSlot } from "./bot-challenge-slot";
import { checkEmail, checkNewPassword, type FormErrors, passwordHint } from "./credential-errors";
import { Field, FormAlert } from "./field";
import { OAuthButtonGroup } from "./oauth-button-group";
import { currentSearch, withReturnTo } from "./return-to";
import { SignedInNotice } from "./signed-in-notice";
import { useCredentialForm } from "./use-credential-form";

export type SignUpProps = {
  /** Heading of the card. Default "Create your account" (the catalogue's "signUp.title"). */
  title?: string;
  /** The page's query string (keeps `after_auth_return_to`); defaults to the browser's. */
  search?: string;
};

/**
 * The password sign-up form. Render it inside a `StackProvider` (or through `StackHandler`).
 *
 * @example
 * <StackProvider app={app}><SignUp /></StackProvider>
 */
export function SignUp({ title, search }: SignUpProps) {
  const app = useStackApp();
  const user = useUser();
  const { t } = useTranslation();
  const form = useCredentialForm(
    (v): FormErrors => ({
      email: checkEmail(v.email, t) ?? undefined,
      password: checkNewPassword(v.password, t) ?? undefined,
      passwordRepeat: v.passwordRepeat === v.password ? undefined : t("common.passwordsDoNotMatch"),
    }),
    (v) => app.signUpWithCredential({ email: v.email, password: v.password }),
  );
  const { values, errors, pending, done } = form;

  if (user && !done && !pending) return <SignedInNotice />;
  return (
    <AuthCard
      title={title ?? t("signUp.title")}
      subtitle={t("signUp.subtitle")}
      footer={
        <>
          {t("signUp.haveAccount")}{" "}
          <a className="stack-link" href={withReturnTo(app.urls.signIn, search ?? currentSearch())}>
            {t("common.signIn")}
          </a>
        </>
      }
    >
      <OAuthButtonGroup type="sign-up" />
      <form className="stack-form" noValidate onSubmit={form.onSubmit} aria-label={t("signUp.submit")}>
        <FormAlert message={errors.form} />
        <Field
          label={t("common.email")}
          name="email"
          type="email"
          autoComplete="email"
          autoFocus
          value={values.email}
          onChange={form.setValue("email")}
          error={errors.email}
        />
        <Field
          label={t("common.password")}
          name="password"
          type="password"
          autoComplete="new-password"
          hint={passwordHint(t)}
          value={values.password}
          onChange={form.setValue("password")}
          error={errors.password}
        />
        <Field
          label={t("signUp.repeatPassword")}
          name="passwordRepeat"
          type="password"
          autoComplete="new-password"
          value={values.passwordRepeat}
          onChange={form.setValue("passwordRepeat")}
          error={errors.passwordRepeat}
        />
        <button className="stack-button" type="submit" disabled={pending || done}>
          {pending || done ? t("signUp.creating") : t("signUp.submit")}
        </button>
      </form>
      <BotChallengeSlot />
    </AuthCard>
  );
}
