/**
 * The user's profile: display name, primary email and whether it is verified (editable), and
 * what the console knows about them (id, sign-up, last activity, sign-in methods, restriction).
 */

import { KnownError, type ServerUser, type ServerUserUpdateOptions } from "@doorman/sdk";
import { type FormEvent, useId, useRef, useState } from "react";
import { focusFirstError } from "../../lib/focus-first-error";
import { formatDateTime } from "../../lib/format";
import { errorMessage } from "../../lib/project-context";
import { useAction } from "../console-ui";

type Errors = { email?: string; form?: string };

export function ProfilePanel({ user, onSave }: { user: ServerUser; onSave: (update: ServerUserUpdateOptions) => Promise<void> }) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const [displayName, setDisplayName] = useState(user.displayName ?? "");
  const [email, setEmail] = useState(user.primaryEmail ?? "");
  const [verified, setVerified] = useState(user.primaryEmailVerified);
  const [errors, setErrors] = useState<Errors>({});
  const { busy: pending, run } = useAction();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = email.trim();
    if (trimmed && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed)) {
      setErrors({ email: "This is not an email address." });
      return focusFirstError(form.current);
    }
    const update: ServerUserUpdateOptions = {};
    if (displayName.trim() !== (user.displayName ?? "")) update.displayName = displayName.trim() || null;
    const emailChanged = trimmed !== (user.primaryEmail ?? "");
    if (emailChanged) update.primaryEmail = trimmed || null;
    // A new address is as verified as the box says (the owner vouches for it, or not).
    if (trimmed && (emailChanged || verified !== user.primaryEmailVerified)) update.primaryEmailVerified = verified;
    setErrors({});
    await run(() => onSave(update), {
      fallback: "Could not save the profile.",
      message: (e, fallback) => {
        setErrors(
          e instanceof KnownError && e.code === "USER_EMAIL_ALREADY_EXISTS"
            ? { email: "Another user already signs in with this email." }
            : { form: errorMessage(e, fallback) },
        );
        return null;
      },
      focus: form.current,
    });
  };

  const methods = [
    user.hasPassword && "password",
    user.otpAuthEnabled && "magic link/OTP",
    user.passkeyAuthEnabled && "passkey",
    ...user.oauthProviders.map((p) => p.id),
  ].filter(Boolean);

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Profile</h2>
      <dl className="user-facts">
        <dt>Id</dt>
        <dd>
          <code className="user-id">{user.id}</code>
        </dd>
        <dt>Signed up</dt>
        <dd>{formatDateTime(user.signedUpAt)}</dd>
        <dt>Last active</dt>
        <dd>{formatDateTime(user.lastActiveAt)}</dd>
        <dt>Sign-in methods</dt>
        <dd>{methods.length ? methods.join(", ") : "none"}</dd>
        <dt>Restricted</dt>
        <dd>
          {!user.isRestricted
            ? "no"
            : user.restrictedReason?.type === "email_not_verified"
              ? "yes: the project requires a verified email"
              : user.restrictedReason?.type === "anonymous"
                ? "yes: anonymous user"
                : `yes, by an admin${user.restrictedByAdminReason ? `: ${user.restrictedByAdminReason}` : ""}`}
        </dd>
      </dl>
      <form ref={form} className="form" noValidate onSubmit={onSubmit}>
        {errors.form ? (
          <p className="alert" role="alert" tabIndex={-1}>
            {errors.form}
          </p>
        ) : null}
        <div className="field">
          <label htmlFor={`${id}-name`}>Display name</label>
          <input id={`${id}-name`} className="input" value={displayName} maxLength={256} onChange={(e) => setDisplayName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-email`}>Primary email</label>
          <input
            id={`${id}-email`}
            className="input"
            type="email"
            autoComplete="off"
            value={email}
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={errors.email ? `${id}-email-error` : undefined}
            onChange={(e) => setEmail(e.target.value)}
          />
          {errors.email ? (
            <p className="field-error" id={`${id}-email-error`}>
              {errors.email}
            </p>
          ) : null}
        </div>
        <label className="checkbox-row">
          <input type="checkbox" checked={verified} disabled={!email.trim()} onChange={(e) => setVerified(e.target.checked)} />
          Primary email verified
        </label>
        <div>
          <button type="submit" className="btn" disabled={pending} aria-busy={pending}>
            {pending ? "Saving…" : "Save profile"}
          </button>
        </div>
      </form>
    </section>
  );
}
