/** Account settings: the user's email addresses (add, verify, make primary, remove). */
import { type FormEvent, useCallback, useEffect, useState } from "react";
import type { ReactContactChannel, ReactUser } from "../app-types";
import { useStackApp } from "../provider";
import { useRefreshUser } from "../use-user";
import { emailLinkErrorMessage, messageOf, throwIfFailed } from "./code-messages";
import { checkEmail } from "./credential-errors";
import { Field, FormAlert } from "./field";

/**
 * @example
 * <EmailsSection user={useUser({ or: "redirect" })} />
 */
export function EmailsSection({ user }: { user: ReactUser }) {
  const app = useStackApp();
  const refreshUser = useRefreshUser();
  const [channels, setChannels] = useState<ReactContactChannel[] | null>(null);
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const reload = useCallback(() => {
    user.listContactChannels().then(setChannels, (e: unknown) => setError(messageOf(e)));
  }, [user]);
  useEffect(reload, [reload]);

  const act = async (label: string, work: () => Promise<unknown>) => {
    setPending(true);
    setError(null);
    setStatus(null);
    try {
      throwIfFailed(await work());
      setStatus(label);
      await refreshUser();
      reload();
    } catch (e) {
      // The only links sent from here are verification links (to the app's verification page).
      setError(emailLinkErrorMessage(e, app.urls.emailVerification));
    }
    setPending(false);
  };

  const add = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = checkEmail(email);
    if (problem) return setError(problem);
    await act("Email added. We sent it a verification link.", async () => {
      const channel = await user.createContactChannel({ value: email.trim(), usedForAuth: false });
      setEmail("");
      throwIfFailed(await channel.sendVerificationEmail());
    });
  };

  return (
    <section className="stack-section" aria-labelledby="stack-emails-heading">
      <h2 id="stack-emails-heading">Emails</h2>
      <FormAlert message={error} />
      <ul className="stack-list">
        {(channels ?? []).map((c) => (
          <li key={c.id} className="stack-list-item">
            <span>
              {c.value} {c.isPrimary ? <span className="stack-badge">Primary</span> : null}{" "}
              {c.isVerified ? (
                <span className="stack-badge">Verified</span>
              ) : (
                <span className="stack-badge stack-badge-warn">Unverified</span>
              )}
            </span>
            <span className="stack-actions">
              {!c.isVerified ? (
                <button
                  type="button"
                  className="stack-button stack-secondary stack-small"
                  disabled={pending}
                  onClick={() => act(`Verification email sent to ${c.value}.`, () => c.sendVerificationEmail())}
                >
                  Send verification email
                </button>
              ) : null}
              {!c.isPrimary ? (
                <button
                  type="button"
                  className="stack-button stack-secondary stack-small"
                  disabled={pending}
                  onClick={() => act(`${c.value} is now your primary email.`, () => c.update({ isPrimary: true }))}
                >
                  Make primary
                </button>
              ) : null}
              {!c.isPrimary ? (
                <button
                  type="button"
                  className="stack-button stack-danger stack-small"
                  disabled={pending}
                  onClick={() => act(`${c.value} removed.`, () => c.delete())}
                >
                  Remove
                </button>
              ) : null}
            </span>
          </li>
        ))}
      </ul>
      <form className="stack-form" noValidate onSubmit={add} aria-label="Add an email">
        <Field
          label="Add an email"
          name="newEmail"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <div className="stack-actions">
          <button className="stack-button stack-secondary" type="submit" disabled={pending}>
            Add email
          </button>
          <span role="status" aria-live="polite" className="stack-hint">
            {status ?? ""}
          </span>
        </div>
      </form>
    </section>
  );
}
