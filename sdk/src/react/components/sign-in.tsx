/**
 * The sign-in page: email + password, per-field and form-level errors, and a link to
 * sign-up that keeps `after_auth_return_to`. On success the SDK redirects to
 * after-sign-in (or the return target); a sign-in from a new device first asks for the emailed code.
 * Enterprise SSO (issue 31): "Continue with SSO" asks the work email; a password or code sign-in
 * refused with SSO_REQUIRED moves there with the email; `?sso_connection_id=` starts that connection.
 */
import { useState } from "react";
import { deviceAttemptOf } from "../../apps/device-verification";
import { ssoRequiredConnectionId } from "../../apps/sso";
import { SSO_CONNECTION_QUERY_PARAM } from "../../shared/sso-paths";
import { useTranslation } from "../i18n/context";
import { useStackApp } from "../provider";
import { useProjectFlag } from "../use-project";
import { useUser } from "../use-user";
import { AuthCard } from "./auth-card";
import { BotChallengeSlot } from "./bot-challenge-slot";
import { checkEmail, type FormErrors } from "./credential-errors";
import { type DeviceAttempt, DeviceCodeStep } from "./device-code-step";
import { Field, FormAlert } from "./field";
import { MagicLinkSignIn } from "./magic-link-sign-in";
import { OAuthButtonGroup } from "./oauth-button-group";
import { PasskeySignInButton } from "./passkey-sign-in-button";
import { currentSearch, withReturnTo } from "./return-to";
import { SignedInNotice } from "./signed-in-notice";
import { SsoSignIn } from "./sso-sign-in";
import { useCredentialForm } from "./use-credential-form";

export type SignInProps = {
  /** Heading of the card. Default "Sign in to your account" (the catalogue's "signIn.title"). */
  title?: string;
  /** The page's query string (keeps `after_auth_return_to`); defaults to the browser's. */
  search?: string;
};

/**
 * The password sign-in form. Render it inside a `StackProvider` (or through `StackHandler`).
 *
 * @example
 * <StackProvider app={app}><SignIn /></StackProvider>
 */
export function SignIn({ title, search }: SignInProps) {
  const app = useStackApp();
  const user = useUser();
  const { t } = useTranslation();
  const [deviceAttempt, setDeviceAttempt] = useState<DeviceAttempt | null>(null);
  // The IdP-initiated bounce: a sign-in of this connection starts at once.
  const [bounceId] = useState(() => new URLSearchParams(search ?? currentSearch()).get(SSO_CONNECTION_QUERY_PARAM));
  const [mode, setMode] = useState<"password" | "code" | "sso">(bounceId ? "sso" : "password");
  // The SSO step's email and why the page is there (a refused password or code sign-in, or the bounce).
  const [sso, setSso] = useState<{ email: string; notice?: string }>({ email: "", notice: bounceId ? t("sso.starting") : undefined });
  const ssoRequired = (email: string) => {
    setSso({ email, notice: t("sso.required", { email }) });
    setMode("sso");
  };
  const form = useCredentialForm(
    (v): FormErrors => ({
      email: checkEmail(v.email, t) ?? undefined,
      password: v.password ? undefined : t("signIn.enterPassword"),
    }),
    async (v) => {
      const result = await app.signInWithCredential({ email: v.email, password: v.password });
      // A new device: the emailed code finishes this sign-in (the card turns into the code step).
      if (result.status === "error") {
        setDeviceAttempt(deviceAttemptOf(result.error));
        if (ssoRequiredConnectionId(result.error) !== undefined) ssoRequired(v.email);
      }
      return result;
    },
  );
  const { values, errors, pending, done } = form;
  const magicLinkEnabled = useProjectFlag("magic_link_enabled") === true;

  if (user && !done && !pending && !deviceAttempt) return <SignedInNotice />;
  if (mode === "sso")
    return (
      <AuthCard title={t("sso.title")} subtitle={t("sso.subtitle")}>
        <SsoSignIn initialEmail={sso.email} notice={sso.notice} connectionId={bounceId} onBack={() => setMode("password")} />
      </AuthCard>
    );
  if (deviceAttempt)
    return (
      <AuthCard title={t("forgot.sentTitle")}>
        <DeviceCodeStep attempt={deviceAttempt} onBack={() => setDeviceAttempt(null)} />
      </AuthCard>
    );
  return (
    <AuthCard
      title={title ?? t("signIn.title")}
      subtitle={mode === "code" ? t("signIn.subtitleCode") : t("signIn.subtitle")}
      footer={
        <>
          {t("signIn.noAccount")}{" "}
          <a className="stack-link" href={withReturnTo(app.urls.signUp, search ?? currentSearch())}>
            {t("signIn.signUpLink")}
          </a>
        </>
      }
    >
      <OAuthButtonGroup type="sign-in" />
      <PasskeySignInButton />
      {mode === "code" ? (
        <>
          <MagicLinkSignIn onSsoRequired={ssoRequired} />
          <button type="button" className="stack-link stack-switch" onClick={() => setMode("password")}>
            {t("signIn.passwordInstead")}
          </button>
        </>
      ) : (
        <form className="stack-form" noValidate onSubmit={form.onSubmit} aria-label={t("common.signIn")}>
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
            autoComplete="current-password"
            value={values.password}
            onChange={form.setValue("password")}
            error={errors.password}
          />
          <a className="stack-link stack-small-link" href={app.urls.forgotPassword ?? "/handler/forgot-password"}>
            {t("signIn.forgotPassword")}
          </a>
          <button className="stack-button" type="submit" disabled={pending || done}>
            {pending || done ? t("common.signingIn") : t("common.signIn")}
          </button>
          {magicLinkEnabled ? (
            <button type="button" className="stack-button stack-secondary" onClick={() => setMode("code")}>
              {t("signIn.codeInstead")}
            </button>
          ) : null}
        </form>
      )}
      <button type="button" className="stack-link stack-switch" onClick={() => setMode("sso")}>
        {t("sso.continue")}
      </button>
      <BotChallengeSlot />
    </AuthCard>
  );
}
