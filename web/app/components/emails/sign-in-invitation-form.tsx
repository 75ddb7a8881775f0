/** "Send sign-in invitation": emails someone a link to the app (which must be on a trusted domain). */
import { useId, useState } from "react";
import type { OwnedProject } from "../../lib/dashboard-types";
import { projectEmailLink } from "../../lib/project-links";
import { useAction } from "../console-ui";

export function SignInInvitationForm(props: { project: OwnedProject; onSent: (message: string) => Promise<void> }) {
  const [email, setEmail] = useState("");
  // The app's sign-in page on its first trusted domain, else the project's hosted sign-in page.
  const [callbackUrl, setCallbackUrl] = useState(() => projectEmailLink(props.project, "sign-in"));
  const { busy, error, run } = useAction();
  const id = useId();
  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    const ok = await run(() => props.project.app.sendSignInInvitation({ email: email.trim(), callbackUrl: callbackUrl.trim() }));
    if (ok) {
      setEmail("");
      await props.onSent(`Invitation sent to ${email.trim()}.`);
    } else document.getElementById(`${id}-email`)?.focus();
  };
  return (
    <form className="form" onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Send a sign-in invitation</h2>
      <p className="muted">
        The invitation links to your app, or to the project&apos;s hosted pages when it has no trusted domain; the link must be on a trusted
        domain or the hosted pages.
      </p>
      <div className="field">
        <label htmlFor={`${id}-email`}>Invitee email</label>
        <input id={`${id}-email`} className="input" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-url`}>Link to</label>
        <input
          id={`${id}-url`}
          className="input"
          type="url"
          required
          value={callbackUrl}
          onChange={(e) => setCallbackUrl(e.target.value)}
        />
      </div>
      {error ? (
        <p className="alert" role="alert">
          {/REDIRECT_URL|not whitelisted|trusted/i.test(error) ? `${error} Add the link's domain under Domains first.` : error}
        </p>
      ) : null}
      <button type="submit" className="btn" disabled={busy}>
        {busy ? "Sending…" : "Send invitation"}
      </button>
    </form>
  );
}
