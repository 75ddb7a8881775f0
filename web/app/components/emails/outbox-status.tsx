/**
 * How the Outbox page names things: an email's status as one of seven badges (with the exact
 * status beside it when they differ, so the state is never told by colour alone), its recipient,
 * the filter choices, and which actions a status allows (the contract's editable statuses).
 */

import type { AdminEmailOutbox, AdminEmailOutboxRecipient, AdminEmailOutboxStatus, EmailOutboxListOptions } from "@doorman/sdk";
import { EMAIL_OUTBOX_DOORMAN_STATUSES, EMAIL_OUTBOX_EDITABLE_STATUSES } from "@doorman/shared/email-outbox-statuses";
import { Link } from "@remix-run/react";

export type OutboxBadge = "queued" | "scheduled" | "sending" | "sent" | "failed" | "skipped" | "paused";

export function badgeOf(status: AdminEmailOutboxStatus): OutboxBadge {
  switch (status) {
    case "paused":
    case "scheduled":
    case "sending":
    case "skipped":
      return status;
    case "preparing":
    case "rendering":
    case "queued":
      return "queued";
    case "render-error":
    case "server-error":
    case "bounced":
      return "failed";
    default:
      return "sent";
  }
}

export function OutboxStatus({ status }: { status: AdminEmailOutboxStatus }) {
  const badge = badgeOf(status);
  return (
    <span className="outbox-status">
      <span className={`status status-${badge}`}>{badge}</span>
      {badge !== status ? <span className="muted"> {status}</span> : null}
    </span>
  );
}

/** Pause, unpause and cancel apply to the API's editable statuses only. */
export const canEdit = (email: AdminEmailOutbox) => EMAIL_OUTBOX_EDITABLE_STATUSES.includes(email.status);
/** A failed email can be sent again (Retry reschedules it to now, its retries reset). */
export const canRetry = (email: AdminEmailOutbox) => email.status === "server-error" || email.status === "render-error";

/** The filter's choices: the common ones, then each exact status Doorman produces. */
export const OUTBOX_FILTERS: { value: string; label: string; options: EmailOutboxListOptions }[] = [
  { value: "", label: "All emails", options: {} },
  { value: "in-progress", label: "In progress", options: { simpleStatus: "in-progress" } },
  { value: "failed", label: "Failed", options: { simpleStatus: "error" } },
  { value: "sent", label: "Sent", options: { status: "sent" } },
  { value: "skipped", label: "Skipped", options: { status: "skipped" } },
];
export const EXACT_STATUSES = EMAIL_OUTBOX_DOORMAN_STATUSES;

export function filterOptions(value: string): EmailOutboxListOptions {
  if (value.startsWith("status:")) return { status: value.slice(7) as AdminEmailOutboxStatus };
  return OUTBOX_FILTERS.find((f) => f.value === value)?.options ?? {};
}

/** Who an email goes to: the addresses it names, or a link to the user whose primary email it is. */
export function Recipient({ to, projectId, userEmail }: { to: AdminEmailOutboxRecipient; projectId: string; userEmail?: string | null }) {
  if (to.type === "custom-emails") return <>{to.emails.join(", ")}</>;
  const user = (
    <Link to={`/projects/${projectId}/users/${encodeURIComponent(to.userId)}`}>
      {userEmail ?? (to.type === "user-primary-email" ? `user ${to.userId.slice(0, 8)}` : "user")}
    </Link>
  );
  if (to.type === "user-custom-emails")
    return (
      <>
        {to.emails.join(", ")} ({user})
      </>
    );
  return userEmail ? user : <>{user}'s primary email</>;
}

/** Why an email was skipped, in words. */
export const SKIPPED_REASONS: Record<string, string> = {
  MANUALLY_CANCELLED: "cancelled by an owner",
  USER_ACCOUNT_DELETED: "the user's account was deleted",
  USER_HAS_NO_PRIMARY_EMAIL: "the user has no primary email",
  USER_UNSUBSCRIBED: "the user unsubscribed from this kind of email",
  NO_EMAIL_PROVIDED: "no address to send to",
};
