/**
 * The account-settings page: the profile (editable display name, read-only email), emails,
 * the password (change, or set a first one), two-factor, notifications, sessions, recent activity,
 * connected accounts, passkey, API keys, teams (with the selected team's settings) and signing out.
 */
import { type FormEvent, useState } from "react";
import { useStackApp } from "../provider";
import { useRefreshUser, useUser } from "../use-user";
import { ActivitySection } from "./activity-section";
import { UserApiKeysSection } from "./api-keys-section";
import { AuthCard } from "./auth-card";
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
  return (
    <AuthCard title="Account settings" subtitle={user.primaryEmail ?? undefined} wide>
      <ProfileSection />
      <EmailsSection user={user} />
      <PasswordSection user={user} />
      <MfaSection user={user} />
      <NotificationsSection user={user} />
      <SessionsSection user={user} />
      <ActivitySection user={user} />
      <ConnectedAccountsSection user={user} />
      <PasskeySection user={user} />
      <UserApiKeysSection user={user} />
      <TeamsSection user={user} />
      <section className="stack-section" aria-labelledby="stack-signout-heading">
        <h2 id="stack-signout-heading">Sign out</h2>
        <p className="stack-hint" style={{ marginBottom: 12 }}>
          End your session on this device.
        </p>
        <a className="stack-button stack-danger" href={app.urls.signOut}>
          Sign out
        </a>
      </section>
    </AuthCard>
  );
}

/** Display name (saved with `user.update`) and the primary email. */
function ProfileSection() {
  const user = useUser({ or: "redirect" });
  const refreshUser = useRefreshUser();
  const [displayName, setDisplayName] = useState(user.displayName ?? "");
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [pending, setPending] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = displayName.trim();
    if (value.length > DISPLAY_NAME_MAX) {
      setError(`Display name must be at most ${DISPLAY_NAME_MAX} characters.`);
      return;
    }
    setPending(true);
    setFormError(null);
    try {
      await user.update({ displayName: value || null });
      await refreshUser();
      setSaved(true);
    } catch (err) {
      setFormError(err instanceof Error ? err.message : "Could not save your profile.");
    }
    setPending(false);
  };

  return (
    <section className="stack-section" aria-labelledby="stack-profile-heading">
      <h2 id="stack-profile-heading">Profile</h2>
      <form className="stack-form" noValidate onSubmit={onSubmit} aria-label="Profile">
        <FormAlert message={formError} />
        <Field
          label="Display name"
          name="displayName"
          autoComplete="name"
          value={displayName}
          maxLength={DISPLAY_NAME_MAX + 1}
          hint="How you appear to others."
          onChange={(e) => {
            setDisplayName(e.target.value);
            setError(null);
            setSaved(false);
          }}
          error={error}
        />
        <Field label="Email" name="email" type="email" value={user.primaryEmail ?? ""} readOnly />
        <div className="stack-actions">
          <button className="stack-button" type="submit" disabled={pending}>
            {pending ? "Saving…" : "Save"}
          </button>
          <span role="status" aria-live="polite" className="stack-hint">
            {saved ? "Saved." : ""}
          </span>
        </div>
      </form>
    </section>
  );
}
