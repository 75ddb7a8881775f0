/**
 * One outbox email opened from the table: status, recipient, times and retries, why it failed
 * (each send attempt's error, the render or server error) or was skipped, the note when the
 * project's template failed and the built-in one was sent, the email as rendered (redacted), and
 * the actions its status allows: Pause/Unpause, Retry (a failed email) and Cancel (confirmed).
 */

import type { AdminEmailOutbox } from "@doorman/sdk";
import type { RefObject } from "react";
import type { OwnedProject } from "../../lib/dashboard-types";
import { formatTimestamp } from "../../lib/format";
import { Alert, ConfirmButton, useAction } from "../console-ui";
import { DataTable } from "../data-table";
import { canEdit, canRetry, OutboxStatus, Recipient, SKIPPED_REASONS } from "./outbox-status";

type Props = {
  project: OwnedProject;
  email: AdminEmailOutbox;
  /** The recipient user's primary email, when the email goes to a user and it is known. */
  userEmail: string | null;
  id: string;
  headingRef: RefObject<HTMLHeadingElement>;
  onChanged: (email: AdminEmailOutbox, message: string) => void;
  onClose: () => void;
};

const SOURCES = { draft: "A draft", "programmatic-call": "A send (API, Compose) or a built-in email" } as const;

export function OutboxDetails({ project, email, userEmail, id, headingRef, onChanged, onClose }: Props) {
  const { busy, error, run } = useAction();
  const app = project.app;
  const act = (action: () => Promise<AdminEmailOutbox>, message: string, fallback: string) =>
    run(async () => onChanged(await action(), message), fallback);
  const paused = email.status === "paused";
  const attempts = email.sendAttemptErrors ?? [];

  return (
    <section className="panel outbox-details" id={id} aria-labelledby={`${id}-title`}>
      <div className="outbox-details-head">
        <h2 id={`${id}-title`} className="outbox-details-title" ref={headingRef} tabIndex={-1}>
          {email.subject ?? "Email not rendered yet"}
        </h2>
        <button type="button" className="btn btn-secondary btn-small" onClick={onClose}>
          Close details
        </button>
      </div>
      <dl className="user-facts">
        <dt>Status</dt>
        <dd>
          <OutboxStatus status={email.status} />
        </dd>
        <dt>To</dt>
        <dd>
          <Recipient to={email.to} projectId={project.id} userEmail={userEmail} />
        </dd>
        <dt>Created</dt>
        <dd>{formatTimestamp(email.createdAt)}</dd>
        <dt>Source</dt>
        <dd>{SOURCES[email.createdWith]}</dd>
        <dt>Scheduled for</dt>
        <dd>{formatTimestamp(email.scheduledAt)}</dd>
        {email.deliveredAt ? (
          <>
            <dt>Sent</dt>
            <dd>{formatTimestamp(email.deliveredAt)}</dd>
          </>
        ) : null}
        <dt>Retries</dt>
        <dd>{email.sendRetries}</dd>
        {email.nextSendRetryAt ? (
          <>
            <dt>Next retry</dt>
            <dd>{formatTimestamp(email.nextSendRetryAt)}</dd>
          </>
        ) : null}
        <dt>Id</dt>
        <dd>
          <code>{email.id}</code>
        </dd>
      </dl>

      {email.renderFallbackError ? (
        <p className="warning">
          <strong>Your template failed, the built-in one was sent:</strong> {email.renderFallbackError}
        </p>
      ) : null}
      {email.renderError ? (
        <p className="alert outbox-problem">
          <strong>Rendering failed:</strong> {email.renderError}
        </p>
      ) : null}
      {email.serverError ? (
        <p className="alert outbox-problem">
          <strong>Sending failed:</strong> {email.serverError}
        </p>
      ) : null}
      {email.status === "skipped" ? (
        <p className="outbox-problem">
          <strong>Not sent:</strong> {SKIPPED_REASONS[email.skippedReason ?? ""] ?? email.skippedReason ?? "skipped"}.
        </p>
      ) : null}

      <h3>Send attempts that failed</h3>
      {attempts.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <DataTable
          className="email-table"
          caption="Failed send attempts"
          captionClassName="visually-hidden"
          scrollLabel="Failed send attempts, scrollable"
          boxClassName="outbox-attempts"
        >
          <thead>
            <tr>
              <th scope="col">Attempt</th>
              <th scope="col">When</th>
              <th scope="col">Error</th>
            </tr>
          </thead>
          <tbody>
            {/* Keyed by time: a retried email numbers its attempts afresh. */}
            {attempts.map((a) => (
              <tr key={a.timestamp}>
                <td>{a.attemptNumber}</td>
                <td>{formatTimestamp(new Date(a.timestamp))}</td>
                <td>
                  {a.externalMessage}
                  {a.internalMessage && a.internalMessage !== a.externalMessage ? <div className="muted">{a.internalMessage}</div> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}

      {canEdit(email) ? (
        <div className="row-actions outbox-actions">
          {paused ? (
            <button
              type="button"
              className="btn btn-secondary btn-small"
              disabled={busy}
              onClick={() => act(() => app.unpauseOutboxEmail(email.id), "Email unpaused.", "Could not unpause the email.")}
            >
              Unpause
            </button>
          ) : (
            <button
              type="button"
              className="btn btn-secondary btn-small"
              disabled={busy}
              onClick={() => act(() => app.pauseOutboxEmail(email.id), "Email paused.", "Could not pause the email.")}
            >
              Pause
            </button>
          )}
          {canRetry(email) ? (
            <button
              type="button"
              className="btn btn-small"
              disabled={busy}
              onClick={() => act(() => app.retryOutboxEmail(email.id), "Email queued again.", "Could not retry the email.")}
            >
              Retry
            </button>
          ) : null}
          <ConfirmButton
            small
            disabled={busy}
            label="Cancel email"
            title="Cancel this email?"
            consequence="It will not be sent. It stays in the outbox as skipped (cancelled by an owner); this cannot be undone."
            confirmLabel="Cancel the email"
            dismissLabel="Keep it"
            onConfirm={async () => onChanged(await app.cancelOutboxEmail(email.id), "Email cancelled.")}
          />
        </div>
      ) : null}
      {busy ? (
        <p className="muted" role="status">
          Working…
        </p>
      ) : null}
      <Alert message={error} />

      {email.html ? (
        <details className="outbox-rendered">
          <summary>The email as rendered (codes and secret links redacted)</summary>
          {/* sandbox="" : no scripts, no same-origin access, no navigation from a stored message. */}
          <iframe title="The email's HTML" className="email-frame" sandbox="" srcDoc={email.html} />
        </details>
      ) : null}
    </section>
  );
}
