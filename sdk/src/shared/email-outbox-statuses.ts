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

/** The reference's delivery-tracking statuses: Doorman has no delivery tracking, so no email reaches them. */
const DELIVERY_TRACKING_STATUSES: readonly EmailOutboxStatus[] = ["bounced", "delivery-delayed", "opened", "clicked", "marked-as-spam"];

/** The statuses Doorman produces, in the order an email meets them. */
export const EMAIL_OUTBOX_DOORMAN_STATUSES: readonly EmailOutboxStatus[] = EMAIL_OUTBOX_STATUSES.filter(
  (s) => !DELIVERY_TRACKING_STATUSES.includes(s),
);

/** Rows in these statuses can be changed with PATCH (the reference's EDITABLE_STATUSES): all but sending and done. */
export const EMAIL_OUTBOX_EDITABLE_STATUSES: readonly EmailOutboxStatus[] = EMAIL_OUTBOX_DOORMAN_STATUSES.filter(
  (s) => s !== "sending" && s !== "skipped" && s !== "sent",
);

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
