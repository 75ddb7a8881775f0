/**
 * The email outbox on the wire (issue 24), as the reference (packages/stack-shared/src/interface/crud/email-outbox.ts,
 * apps/backend/src/app/api/latest/emails/outbox/**). Server or admin access.
 *
 * Every email Doorman sends (the built-in ones: verification, reset, sign-in code, invitations,
 * notices; and `POST /emails/send-email`) is first an outbox row, written with its cause; a queue
 * consumer renders and sends it, retrying temporary failures (4xx, timeouts, dropped connections)
 * with backoff and stopping on permanent ones (5xx).
 *
 * - `GET /emails/outbox?status=&simple_status=&limit=&cursor=`: newest first, `limit` 1..100 (default 100),
 *   `{ items, is_paginated: true, pagination: { next_cursor } }`.
 * - `GET /emails/outbox/{id}`: one item.
 * - `PATCH /emails/outbox/{id}` with `emailOutboxUpdateSchema`: pause/unpause (`is_paused`), cancel
 *   (`cancel: true`, the row becomes `skipped` with reason `MANUALLY_CANCELLED`), reschedule
 *   (`scheduled_at_millis`; on a failed row this is the console's "Retry": it is queued again with
 *   its retries reset), or change what is rendered (`tsx_source`, `theme_id`, `variables`, `to`),
 *   which renders it again. Only rows in paused, preparing, rendering, render-error, scheduled, queued
 *   or server-error can change: otherwise `EMAIL_NOT_EDITABLE` (400, details `email_id`, `status`).
 *
 * Doorman's addition: `render_fallback_error` is set when the project's own template failed and the
 * built-in one was sent instead (the email still went out; the owner sees why).
 * The stored html/text have their codes and secret links redacted, like the email log; built-in
 * emails' secret variables (a link with a code) are answered as "[redacted]".
 */
import { z } from "zod";
import { EMAIL_OUTBOX_SIMPLE_STATUSES, EMAIL_OUTBOX_STATUSES } from "./email-outbox-statuses";

export * from "./email-outbox-statuses";

export const emailOutboxRecipientSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("user-primary-email"), user_id: z.string().min(1).max(64) }),
  z.object({ type: z.literal("user-custom-emails"), user_id: z.string().min(1).max(64), emails: z.array(z.email()).min(1).max(50) }),
  z.object({ type: z.literal("custom-emails"), emails: z.array(z.email()).min(1).max(50) }),
]);
export type EmailOutboxRecipient = z.infer<typeof emailOutboxRecipientSchema>;

export const emailOutboxAttemptErrorSchema = z.object({
  attempt_number: z.number().int(),
  timestamp: z.string(),
  external_message: z.string(),
  external_details: z.record(z.string(), z.unknown()),
  internal_message: z.string(),
  internal_details: z.record(z.string(), z.unknown()),
});
export type EmailOutboxAttemptError = z.infer<typeof emailOutboxAttemptErrorSchema>;

/**
 * One outbox row. Fields that exist only in some states (rendered, sending, error, skipped) are
 * optional here; which are present follows the reference's per-status schemas.
 */
export const emailOutboxItemSchema = z.object({
  id: z.string(),
  created_at_millis: z.number(),
  updated_at_millis: z.number(),
  tsx_source: z.string(),
  theme_id: z.string().nullable(),
  to: emailOutboxRecipientSchema,
  variables: z.record(z.string(), z.unknown()),
  skip_deliverability_check: z.boolean(),
  scheduled_at_millis: z.number(),
  created_with: z.enum(["draft", "programmatic-call"]),
  email_draft_id: z.string().nullable(),
  email_programmatic_call_template_id: z.string().nullable(),
  send_retries: z.number().int(),
  next_send_retry_at_millis: z.number().nullable(),
  send_attempt_errors: z.array(emailOutboxAttemptErrorSchema).nullable(),
  status: z.enum(EMAIL_OUTBOX_STATUSES),
  simple_status: z.enum(EMAIL_OUTBOX_SIMPLE_STATUSES),
  is_paused: z.boolean(),
  has_rendered: z.boolean(),
  has_delivered: z.boolean(),
  // rendered
  started_rendering_at_millis: z.number().optional(),
  rendered_at_millis: z.number().optional(),
  subject: z.string().optional(),
  html: z.string().nullable().optional(),
  text: z.string().nullable().optional(),
  is_transactional: z.boolean().optional(),
  is_high_priority: z.boolean().optional(),
  notification_category_id: z.string().nullable().optional(),
  // render-error
  render_error: z.string().optional(),
  // sending, sent, server-error
  started_sending_at_millis: z.number().optional(),
  delivered_at_millis: z.number().optional(),
  can_have_delivery_info: z.boolean().optional(),
  error_at_millis: z.number().optional(),
  server_error: z.string().optional(),
  // skipped
  skipped_at_millis: z.number().optional(),
  skipped_reason: z.string().optional(),
  skipped_details: z.record(z.string(), z.unknown()).optional(),
  /** Doorman: the project's template failed and the built-in one was sent instead. */
  render_fallback_error: z.string().nullable().optional(),
});
export type EmailOutboxItemJson = z.infer<typeof emailOutboxItemSchema>;

export const emailOutboxListQuerySchema = z.object({
  status: z.enum(EMAIL_OUTBOX_STATUSES).optional(),
  simple_status: z.enum(EMAIL_OUTBOX_SIMPLE_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  cursor: z.string().min(1).max(64).optional(),
});

export const emailOutboxListSchema = z.object({
  items: z.array(emailOutboxItemSchema),
  is_paginated: z.literal(true),
  pagination: z.object({ next_cursor: z.string().nullable() }),
});
export type EmailOutboxListJson = z.infer<typeof emailOutboxListSchema>;

export const emailOutboxUpdateSchema = z.strictObject({
  tsx_source: z.string().max(256_000).optional(),
  theme_id: z.string().max(64).nullable().optional(),
  to: emailOutboxRecipientSchema.optional(),
  variables: z.record(z.string(), z.unknown()).optional(),
  skip_deliverability_check: z.boolean().optional(),
  scheduled_at_millis: z.number().int().min(0).optional(),
  is_paused: z.boolean().optional(),
  cancel: z.literal(true).optional(),
});
export type EmailOutboxUpdateJson = z.infer<typeof emailOutboxUpdateSchema>;
