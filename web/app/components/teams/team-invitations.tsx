/**
 * Invitations of a team on its detail page: send one by email (the link leads to the app's
 * team-invitation page, by default on the project's first trusted domain) and revoke open ones
 * behind a confirmation.
 */

import { KnownError, type TeamInvitation } from "@doorman/sdk";
import { type FormEvent, useId, useRef, useState } from "react";
import { formatDateTime } from "../../lib/format";
import { Alert, ConfirmButton, TextField, useAction } from "../console-ui";
import { emailProblem, urlProblem } from "./team-fields";

type Props = {
  teamName: string;
  invitations: TeamInvitation[];
  /** The suggested callback URL ("" when the project has no trusted domain). */
  defaultCallbackUrl: string;
  onSend(email: string, callbackUrl: string): Promise<void>;
  onRevoke(invitation: TeamInvitation): Promise<void>;
};

export function TeamInvitations(props: Props) {
  const id = useId();
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Invitations</h2>
      {props.invitations.length === 0 ? (
        <p className="empty">No open invitations.</p>
      ) : (
        <ul className="invitation-list" aria-label="Open invitations">
          {props.invitations.map((invitation) => (
            <li key={invitation.id}>
              <span>
                <strong>{invitation.recipientEmail}</strong>
                <br />
                <span className="muted">Expires {formatDateTime(invitation.expiresAt)}</span>
              </span>
              <ConfirmButton
                small
                label="Revoke"
                ariaLabel={`Revoke the invitation to ${invitation.recipientEmail}`}
                title={`Revoke the invitation to ${invitation.recipientEmail}?`}
                consequence={`The link in the email stops working, so ${invitation.recipientEmail} can no longer join ${props.teamName} with it. You can send a new invitation later.`}
                confirmLabel="Revoke invitation"
                onConfirm={() => props.onRevoke(invitation)}
              />
            </li>
          ))}
        </ul>
      )}
      <InviteForm {...props} />
    </section>
  );
}

function InviteForm({ defaultCallbackUrl, onSend }: Props) {
  const id = useId();
  const [email, setEmail] = useState("");
  const [callbackUrl, setCallbackUrl] = useState(defaultCallbackUrl);
  const [errors, setErrors] = useState<{ email?: string; url?: string }>({});
  const emailRef = useRef<HTMLInputElement>(null);
  const urlRef = useRef<HTMLInputElement>(null);
  const { busy, error, run } = useAction();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const next = { email: emailProblem(email) ?? undefined, url: urlProblem(callbackUrl) ?? undefined };
    setErrors(next);
    if (next.email) return emailRef.current?.focus();
    if (next.url) return urlRef.current?.focus();
    let untrusted = false;
    const ok = await run(async () => {
      try {
        await onSend(email.trim(), callbackUrl.trim());
      } catch (e) {
        if (e instanceof KnownError && e.code === "REDIRECT_URL_NOT_WHITELISTED") untrusted = true;
        else throw e;
      }
    }, "Could not send the invitation.");
    if (untrusted) {
      setErrors({ url: "This URL is not on a trusted domain of the project. Add its domain under Domains, or use a trusted one." });
      urlRef.current?.focus();
    } else if (ok) setEmail("");
  };

  return (
    <form className="form invite-form" noValidate onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Send an invitation</h3>
      <Alert message={error} />
      <TextField
        id={`${id}-email`}
        label="Email to invite"
        inputRef={emailRef}
        type="email"
        value={email}
        autoComplete="off"
        error={errors.email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <TextField
        id={`${id}-url`}
        label="Invitation page URL"
        inputRef={urlRef}
        type="url"
        value={callbackUrl}
        placeholder="https://app.example.com/handler/team-invitation"
        hint={
          defaultCallbackUrl
            ? "The emailed link opens this page of your app, which accepts the invitation. It must be on a trusted domain."
            : "The page of your app that accepts invitations. The project has no trusted domain yet, so type one (localhost works in development)."
        }
        hintClassName="muted team-hint"
        error={errors.url}
        onChange={(e) => setCallbackUrl(e.target.value)}
      />
      <div>
        <button type="submit" className="btn" disabled={busy} aria-busy={busy}>
          {busy ? "Sending…" : "Send invitation"}
        </button>
      </div>
    </form>
  );
}
