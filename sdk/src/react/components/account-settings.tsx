/**
 * The account-settings page: the profile (editable display name, read-only email), emails,
 * the password (change, or set a first one), two-factor, notifications, sessions, recent activity,
 * connected accounts, authorized apps, passkey, API keys, teams (with the selected team's settings) and signing out.
 * A navigation at the top links to each section shown (plain in-page links: keyboard and screen
 * reader friendly, and they work before hydration).
 */
import { type FormEvent, useState } from "react";
import { useTranslation } from "../i18n/context";
import type { MessageKey } from "../i18n/en";
import { useStackApp } from "../provider";
import { useProjectFlag } from "../use-project";
import { useRefreshUser, useUser } from "../use-user";
import { ActivitySection } from "./activity-section";
import { UserApiKeysSection } from "./api-keys-section";
import { AuthCard } from "./auth-card";
import { AuthorizedAppsSection } from "./authorized-apps-section";
import { ConnectedAccountsSection } from "./connected-accounts-section";
import { EmailsSection } from "./emails-section";
import { Field, FormAlert } from "./field";
import { MfaSection } from "./mfa-section";
import { NotificationsSection } from "./notifications-section";
import { PasskeySection } from "./passkey-section";
import { PasswordSection } from "./password-section";
import { SessionsSection } from "./sessions-section";
import { TeamsSection } from "./teams-section";

const DISPLAY_NAME_MAX = 256; // wire limit of display_name

/**
 * The signed-in user's settings; redirects to sign-in when nobody is signed in.
 *
 * @example
 * <StackProvider app={app}><AccountSettings /></StackProvider>
 */
export function AccountSettings() {
  const user = useUser({ or: "redirect" });
  const app = useStackApp();
  const { t } = useTranslation();
  const passkeys = useProjectFlag("passkey_enabled") === true;
  const apiKeys = useProjectFlag("allow_user_api_keys") === true;
  const sections: [id: string, label: MessageKey][] = [
    ["stack-profile-heading", "profile.heading"],
    ["stack-emails-heading", "emails.heading"],
    ["stack-password-heading", "password.heading"],
    ["stack-mfa-heading", "mfa.heading"],
    ["stack-notifications-heading", "notifications.heading"],
    ["stack-sessions-heading", "sessions.heading"],
    ["stack-activity-heading", "activity.heading"],
    ["stack-connected-accounts-heading", "connected.heading"],
    ["stack-authorized-apps-heading", "apps.heading"],
    ...(passkeys ? [["stack-passkey-heading", "passkey.heading"] as [string, MessageKey]] : []),
    ...(apiKeys ? [["stack-api-keys-heading", "apiKeys.heading"] as [string, MessageKey]] : []),
    ["stack-teams-heading", "teams.heading"],
  ];

  return (
    <AuthCard title={t("account.title")} subtitle={user.primaryEmail ?? undefined} wide>
      <nav className="stack-nav" aria-label={t("account.nav")}>
        <ul>
          {sections.map(([id, label]) => (
            <li key={id}>
              <a href={`#${id}`} onClick={() => focusHeading(id)}>
                {t(label)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <ProfileSection />
      <EmailsSection user={user} />
      <PasswordSection user={user} />
      <MfaSection user={user} />
      <NotificationsSection user={user} />
      <SessionsSection user={user} />
      <ActivitySection user={user} />
      <ConnectedAccountsSection user={user} />
      <AuthorizedAppsSection user={user} />
      <PasskeySection user={user} />
      <UserApiKeysSection user={user} />
      <TeamsSection user={user} />
      <section className="stack-section" aria-labelledby="stack-signout-heading">
        <h2 id="stack-signout-heading">{t("common.signOut")}</h2>
        <p className="stack-hint" style={{ marginBottom: 12 }}>
          {t("account.signOutHint")}
        </p>
        <a className="stack-button stack-danger" href={app.urls.signOut}>
          {t("common.signOut")}
        </a>
      </section>
    </AuthCard>
  );
}

/**
 * Moves focus to a section's heading after the in-page link scrolled to it, so keyboard and
 * screen-reader users continue from there (the link alone only scrolls in some browsers).
 */
function focusHeading(id: string): void {
  const heading = typeof document === "undefined" ? null : document.getElementById(id);
  if (!heading) return;
  heading.tabIndex = -1; // focusable by script only, not a tab stop
  heading.focus({ preventScroll: true });
}

/** Display name (saved with
 `user.update`) and the primary email. */
function ProfileSection() {
  const user = useUser({ or: "redirect" });
  const refreshUser = useRefreshUser();
  const { t } = useTranslation();
  const [displayName, setDisplayName] = useState(user.displayName ?? "");
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [pending, setPending] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = displayName.trim();
    if (value.length > DISPLAY_NAME_MAX) {
      setError(t("profile.displayNameTooLong", { max: DISPLAY_NAME_MAX }));
      return;
    }
    setPending(true);
    setFormError(null);
    try {
      await user.update({ displayName: value || null });
      await refreshUser();
      setSaved(true);
    } catch (err) {
      setFormError(err instanceof Error ? err.message : t("profile.saveFailed"));
    }
    setPending(false);
  };

  return (
    <section className="stack-section" aria-labelledby="stack-profile-heading">
      <h2 id="stack-profile-heading">{t("profile.heading")}</h2>
      <form className="stack-form" noValidate onSubmit={onSubmit} aria-label={t("profile.heading")}>
        <FormAlert message={formError} />
        <Field
          label={t("profile.displayName")}
          name="displayName"
          autoComplete="name"
          value={displayName}
          maxLength={DISPLAY_NAME_MAX + 1}
          hint={t("profile.displayNameHint")}
          onChange={(e) => {
            setDisplayName(e.target.value);
            setError(null);
            setSaved(false);
          }}
          error={error}
        />
        <Field label={t("common.email")} name="email" type="email" value={user.primaryEmail ?? ""} readOnly />
        <div className="stack-actions">
          <button className="stack-button" type="submit" disabled={pending}>
            {pending ? t("common.saving") : t("common.save")}
          </button>
          <span role="status" aria-live="polite" className="stack-hint">
            {saved ? t("profile.saved") : ""}
          </span>
        </div>
      </form>
    </section>
  );
}
