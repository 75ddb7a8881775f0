/**
 * The dev inbox's messages (development only): each message's subject, recipients and time, the
 * codes to type and the links to open, and its text and HTML on demand. Shared by the project's
 * inbox page (owners) and /dev-inbox (the signed-in owner's own mail).
 */
import type { DevInboxEntry, DevInboxMessage } from "@doorman/sdk";
import { useId, useState } from "react";
import { formatTimestamp } from "../../lib/format";
import { errorMessage } from "../../lib/project-context";

export type LoadBody = (id: string) => Promise<DevInboxMessage | null>;

export function DevInboxMessages(props: { messages: (DevInboxEntry | DevInboxMessage)[]; loadBody?: LoadBody; empty: string }) {
  if (props.messages.length === 0) return <p className="muted">{props.empty}</p>;
  return (
    <ol className="dev-inbox-list">
      {props.messages.map((m) => (
        <li key={m.id}>
          <DevInboxItem message={m} loadBody={props.loadBody} />
        </li>
      ))}
    </ol>
  );
}

function DevInboxItem({ message, loadBody }: { message: DevInboxEntry | DevInboxMessage; loadBody?: LoadBody }) {
  const headingId = useId();
  return (
    <article className="dev-inbox-item" aria-labelledby={headingId}>
      <h3 id={headingId}>{message.subject || "(no subject)"}</h3>
      <p className="muted dev-inbox-meta">
        To {message.to.join(", ")} · {formatTimestamp(message.createdAt)}
      </p>
      {message.codes.length > 0 ? (
        <p className="dev-inbox-codes">
          Code{" "}
          {message.codes.map((c) => (
            <code key={c} className="dev-inbox-code">
              {c}
            </code>
          ))}
        </p>
      ) : null}
      {message.links.length > 0 ? (
        <ul className="dev-inbox-links" aria-label="Links in this email">
          {message.links.map((l) => (
            <li key={l}>
              <a href={l} target="_blank" rel="noreferrer">
                {l}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      <MessageBody message={message} loadBody={loadBody} />
    </article>
  );
}

function MessageBody({ message, loadBody }: { message: DevInboxEntry | DevInboxMessage; loadBody?: LoadBody }) {
  const [body, setBody] = useState<DevInboxMessage | null>("text" in message ? message : null);
  const [error, setError] = useState<string | null>(null);
  const onToggle = (open: boolean) => {
    if (!open || body || !loadBody) return;
    loadBody(message.id).then(
      (m) => (m ? setBody(m) : setError("This message is no longer in the inbox.")),
      (e: unknown) => setError(errorMessage(e, "Could not load the message.")),
    );
  };
  return (
    <details className="dev-inbox-body" onToggle={(e) => onToggle(e.currentTarget.open)}>
      <summary>Show the email</summary>
      {error ? (
        <p className="alert" role="alert">
          {error}
        </p>
      ) : body ? (
        <>
          {/* Why: the HTML is a rendered template (owners' code output); no script runs in the empty sandbox. */}
          <iframe className="dev-inbox-frame" title={`The email “${message.subject}”`} sandbox="" srcDoc={body.html} />
          <pre className="dev-inbox-text">{body.text}</pre>
          {body.truncated ? <p className="muted">The message was cut at 256 KiB.</p> : null}
        </>
      ) : (
        <p className="muted" role="status">
          Loading…
        </p>
      )}
    </details>
  );
}
