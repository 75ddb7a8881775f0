/**
 * `/projects/{id}/sign-in-methods`: how people sign in to the project (password, magic link/OTP,
 * passkeys, required MFA, a required verified email, new sign-ups), its OAuth providers, account
 * merging, and the team and API-key switches. Each change is saved at once through the owner's admin app (project.update).
 */

import type { ProjectConfig } from "@doorman/sdk";
import type { MetaFunction } from "@remix-run/cloudflare";
import { useId } from "react";
import { ConfigToggle } from "../components/config/config-toggle";
import { OAuthProvidersPanel } from "../components/config/oauth-providers-panel";
import { useConfigSave } from "../components/config/use-config-save";
import { PageHeading } from "../components/console-ui";
import { RouteError } from "../components/route-error";
import { useProject } from "../lib/project-context";

export const meta: MetaFunction = () => [{ title: "Sign-in methods · Doorman" }];

type Flag =
  | "credentialEnabled"
  | "magicLinkEnabled"
  | "passkeyEnabled"
  | "requireMfa"
  | "requireEmailVerification"
  | "signUpEnabled"
  | "anonymousSignUpEnabled"
  | "clientTeamCreationEnabled"
  | "createTeamOnSignUp"
  | "allowUserApiKeys"
  | "allowTeamApiKeys"
  | "clientUserDeletionEnabled";

const METHODS: { flag: Flag; label: string; hint: string }[] = [
  { flag: "credentialEnabled", label: "Email and password", hint: "People sign up and sign in with a password." },
  {
    flag: "magicLinkEnabled",
    label: "Magic link and one-time code",
    hint: "People get a sign-in link and a code by email; no password needed.",
  },
  { flag: "passkeyEnabled", label: "Passkeys", hint: "People who registered a passkey sign in with it (fingerprint, face, security key)." },
  {
    flag: "requireMfa",
    label: "Require two-factor authentication",
    hint: "Every user needs an authenticator app (TOTP); users without one set it up at their next sign-in before they get in.",
  },
  {
    flag: "requireEmailVerification",
    label: "Require a verified email",
    hint: "Users with an unverified email are restricted: your app sees them as signed out (the SDK's includeRestricted shows them) until they verify it.",
  },
  { flag: "signUpEnabled", label: "Allow new sign-ups", hint: "Off: only existing users can sign in; you can still create users here." },
  {
    flag: "anonymousSignUpEnabled",
    label: "Anonymous (guest) users",
    hint: "Your app can create a guest account before sign-up; independent of new sign-ups.",
  },
];

const TEAMS_AND_KEYS: { flag: Flag; label: string; hint: string }[] = [
  { flag: "clientTeamCreationEnabled", label: "Users can create teams", hint: "Signed-in users create teams from your app." },
  { flag: "createTeamOnSignUp", label: "Personal team on sign-up", hint: "Each new user gets a team of their own." },
  { flag: "allowUserApiKeys", label: "User API keys", hint: "Users create API keys that act as them." },
  { flag: "allowTeamApiKeys", label: "Team API keys", hint: "Teams create API keys that act for the team." },
  { flag: "clientUserDeletionEnabled", label: "Users can delete their account", hint: "From account settings in your app." },
];

const MERGE_STRATEGIES: { value: ProjectConfig["oauthAccountMergeStrategy"]; label: string }[] = [
  { value: "link_method", label: "Link to the existing account with the same verified email" },
  { value: "raise_error", label: "Refuse: ask the person to sign in the way they signed up" },
  { value: "allow_duplicates", label: "Create a separate account" },
];

export default function SignInMethodsRoute() {
  const { project, reloadProject, toast } = useProject();
  const { saving, errors, save } = useConfigSave();
  const config = project.config;
  const mergeId = useId();

  const toggle = (flag: Flag, label: string) => (on: boolean) =>
    save(flag, { config: { [flag]: on } }, `${label} ${on ? "turned on" : "turned off"}.`);
  const renderToggles = (list: typeof METHODS) =>
    list.map((m) => (
      <ConfigToggle
        key={m.flag}
        label={m.label}
        hint={m.hint}
        checked={config[m.flag] === true}
        saving={saving === m.flag}
        disabled={saving !== null}
        error={errors[m.flag]}
        onChange={toggle(m.flag, m.label)}
      />
    ));

  const saveProviders = async (providers: ProjectConfig["oauthProviders"], success: string) => {
    // The provider form shows the API's error itself (thrown from here).
    await project.update({ config: { oauthProviders: providers } });
    await reloadProject();
    toast(success);
  };

  return (
    <>
      <PageHeading title={`Sign-in methods · ${project.displayName}`}>
        <p className="muted">Changes are saved as you make them and apply to your app at once.</p>
      </PageHeading>
      <section className="panel config-group" aria-labelledby="methods-heading">
        <h2 id="methods-heading">Ways to sign in</h2>
        {renderToggles(METHODS)}
      </section>
      <OAuthProvidersPanel providers={config.oauthProviders} saveProviders={saveProviders} />
      <section className="panel config-group" aria-labelledby="merge-heading">
        <h2 id="merge-heading">Same email, another provider</h2>
        <div className="field">
          <label htmlFor={mergeId}>When someone signs in with a provider whose email already has an account</label>
          <select
            id={mergeId}
            className="input"
            value={config.oauthAccountMergeStrategy}
            disabled={saving !== null}
            aria-invalid={errors.merge ? true : undefined}
            aria-describedby={errors.merge ? `${mergeId}-error` : undefined}
            onChange={(e) =>
              save(
                "merge",
                { config: { oauthAccountMergeStrategy: e.target.value as ProjectConfig["oauthAccountMergeStrategy"] } },
                "Account merging saved.",
              )
            }
          >
            {MERGE_STRATEGIES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
          {saving === "merge" ? (
            <span className="muted" role="status">
              Saving…
            </span>
          ) : null}
          {errors.merge ? (
            <p className="field-error" id={`${mergeId}-error`} role="alert">
              {errors.merge}
            </p>
          ) : null}
        </div>
      </section>
      <section className="panel config-group" aria-labelledby="teams-heading">
        <h2 id="teams-heading">Teams and API keys</h2>
        {renderToggles(TEAMS_AND_KEYS)}
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
