/**
 * The outbox's statuses (wire-email-outbox.ts), without zod: the console imports these, and the
 * client bundle should not carry the schemas.
 */

/** Every status of the reference; Doorman produces all but bounced, delivery-delayed, opened, clicked and marked-as-spam (no delivery tracking). */
export const EMAIL_OUTBOX_STATUSES = [
  "paused",
  "preparing",
  "rendering",
  "render-error",
  "scheduled",
  "queued",
  "sending",
  "server-error",
  "skipped",
  "bounced",
  "delivery-delayed",
  "sent",
  "opened",
  "clicked",
  "marked-as-spam",
] as const;
export type EmailOutboxStatus = (typeof EMAIL_OUTBOX_STATUSES)[number];
export const EMAIL_OUTBOX_SIMPLE_STATUSES = ["in-progress", "error", "ok"] as const;
export type EmailOutboxSimpleStatus = (typeof EMAIL_OUTBOX_SIMPLE_STATUSES)[number];

/** The statuses Doorman produces (it has no delivery tracking), in the order an email meets them. */
export const EMAIL_OUTBOX_DOORMAN_STATUSES: readonly EmailOutboxStatus[] = [
  "paused",
  "preparing",
  "rendering",
  "render-error",
  "scheduled",
  "queued",
  "sending",
  "server-error",
  "skipped",
  "sent",
];

/** Rows in these statuses can be changed with PATCH (the reference's EDITABLE_STATUSES). */
export const EMAIL_OUTBOX_EDITABLE_STATUSES: readonly EmailOutboxStatus[] = [
  "paused",
  "preparing",
  "rendering",
  "render-error",
  "scheduled",
  "queued",
  "server-error",
];

/** Why a row was skipped (the reference's EmailOutboxSkippedReason values Doorman uses). */
export const EMAIL_OUTBOX_SKIPPED_REASONS = [
  "MANUALLY_CANCELLED",
  "USER_ACCOUNT_DELETED",
  "USER_HAS_NO_PRIMARY_EMAIL",
  "USER_UNSUBSCRIBED",
  "NO_EMAIL_PROVIDED",
] as const;

/** The simple status of a status, as the reference derives it. */
export function simpleStatusOf(status: EmailOutboxStatus): EmailOutboxSimpleStatus {
  switch (status) {
    case "render-error":
    case "server-error":
    case "bounced":
      return "error";
    case "skipped":
    case "sent":
    case "delivery-delayed":
    case "opened":
    case "clicked":
    case "marked-as-spam":
      return "ok";
    default:
      return "in-progress";
  }
}
