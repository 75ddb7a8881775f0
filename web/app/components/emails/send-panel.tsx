/**
 * Sending, shared by Compose and Drafts: a button that checks the form, counts the recipients and
 * asks before sending (the dialog states how many users get the email), and the per-user results
 * table: sent, queued, skipped (no primary email, unsubscribed) or failed, with a link to the log.
 */

import type { SendEmailResult } from "@doorman/sdk";
import { Link } from "@remix-run/react";
import { useId, useRef, useState } from "react";
import { Alert, useAction } from "../console-ui";
import { DataTable } from "../data-table";
import type { ResolvedRecipients } from "./recipient-picker";

const users = (n: number) => `${n} ${n === 1 ? "user" : "users"}`;

export function SendButton(props: {
  /** Checks the form (focusing the first error) and counts the recipients; null when the form has an error. */
  prepare: () => Promise<ResolvedRecipients | null>;
  send: (recipients: ResolvedRecipients) => Promise<void>;
  label?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [resolved, setResolved] = useState<ResolvedRecipients | null>(null);
  const count = useAction();
  const sendAction = useAction();
  const { busy: counting, error: outerError } = count;
  const { busy: sending, error } = sendAction;

  const open = async () => {
    sendAction.setError(null);
    await count.run(async () => {
      const r = await props.prepare();
      if (!r) return;
      setResolved(r);
      dialog.current?.showModal();
    }, "Could not count the recipients.");
  };
  const confirm = async () => {
    if (!resolved) return;
    await sendAction.run(async () => {
      await props.send(resolved);
      dialog.current?.close();
    }, "The email could not be sent.");
  };

  return (
    <>
      <div className="inline send-row">
        <button type="button" className="btn" onClick={open} disabled={counting || sending}>
          {counting ? "Counting recipients…" : (props.label ?? "Send…")}
        </button>
      </div>
      <Alert message={outerError} />
      <dialog ref={dialog} className="confirm-dialog" aria-labelledby={titleId}>
        <h2 id={titleId}>{resolved ? `Send to ${users(resolved.count)}?` : "Send?"}</h2>
        <p>
          {resolved
            ? `This email goes to ${resolved.what} (${users(resolved.count)}) now. Users without a primary email, or whose notification settings leave out this kind of email, are skipped. A sent email cannot be called back.`
            : null}
        </p>
        <Alert message={error} />
        <div className="dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={() => dialog.current?.close()} disabled={sending}>
            Cancel
          </button>
          <button type="button" className="btn" onClick={confirm} disabled={sending || !resolved} aria-busy={sending}>
            {sending ? "Sending…" : resolved ? `Send to ${users(resolved.count)}` : "Send"}
          </button>
        </div>
      </dialog>
    </>
  );
}

const REASONS: Record<string, string> = {
  "User does not have a primary email": "No email address",
  "User has disabled notifications for this category": "Has not turned on this kind of email, or turned it off",
};

export function SendResults(props: { projectId: string; results: SendEmailResult[]; names?: Map<string, string> }) {
  const count = (s: SendEmailResult["status"]) => props.results.filter((r) => r.status === s).length;
  const summary = [
    `${count("sent")} sent`,
    count("queued") ? `${count("queued")} queued` : null,
    `${count("skipped")} skipped`,
    `${count("failed")} failed`,
  ]
    .filter(Boolean)
    .join(", ");
  return (
    <section className="panel" aria-labelledby="send-results-title">
      <h2 id="send-results-title">Results</h2>
      <p role="status">{summary}.</p>
      <DataTable isEmpty={props.results.length === 0} empty="Nobody to send to." className="email-table">
        <thead>
          <tr>
            <th scope="col">User</th>
            <th scope="col">Email</th>
            <th scope="col">Result</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {props.results.map((r) => (
            <tr key={r.userId}>
              <td>
                <Link to={`/projects/${props.projectId}/users/${r.userId}`}>{props.names?.get(r.userId) ?? r.userId}</Link>
              </td>
              <td>{r.userEmail ?? "—"}</td>
              <td>
                <span className={`status status-${r.status}`}>{r.status}</span>
              </td>
              <td>
                {r.error ? <span className="email-error">{REASONS[r.error] ?? r.error}</span> : null}
                {r.emailId ? (
                  <>
                    {r.error ? " · " : null}
                    <Link to={`/projects/${props.projectId}/emails/${r.emailId}`}>In the sent log</Link>
                  </>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </DataTable>
    </section>
  );
}
