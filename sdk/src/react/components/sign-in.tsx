/**
 * The sign-in page: email + password, per-field and form-level errors, and a link to
 * sign-up that keeps `after_auth_return_to`. On success the SDK redirects to
 * after-sign-in (or the return target); a sign-in from a new device first asks for the emailed code.
 */
import { useState } from "react";
import { deviceAttemptOf } from "../../apps/device-verification";
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
  const form = useCredentialForm(
    (v): FormErrors => ({
      email: checkEmail(v.email, t) ?? undefined,
      password: v.password ? undefined : t("signIn.enterPassword"),
    }),
    async (v) => {
      const result = await app.signInWithCredential({ email: v.email, password: v.password });
      // A new device: the emailed code finishes this sign-in (the card turns into the code step).
      if (result.status === "error") setDeviceAttempt(deviceAttemptOf(result.error));
      return result;
    },
  );
  const { values, errors, pending, done } = form;
  const magicLinkEnabled = useProjectFlag("magic_link_enabled") === true;
  const [mode, setMode] = useState<"password" | "code">("password");

  if (user && !done && !pending && !deviceAttempt) return <SignedInNotice />;
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
          <MagicLinkSignIn />
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
      <BotChallengeSlot />
    </AuthCard>
  );
}
