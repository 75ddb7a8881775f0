/** The wire view of an outbox row (sdk/src/shared/wire-email-outbox.ts), per status as the reference's. */
import {
  type EmailOutboxAttemptError,
  type EmailOutboxItemJson,
  type EmailOutboxRecipient,
  type EmailOutboxStatus,
  simpleStatusOf,
} from "@doorman/shared/wire-email-outbox";
import type { OutboxRow } from "../../db/queries/email-outbox";

/**
 * `tsxSource` is what the row renders: its own, or for a built-in email the project's template of
 * that kind (resolved by the caller, which has the project).
 */
export function emailOutboxView(row: OutboxRow, tsxSource: string): EmailOutboxItemJson {
  const status = row.status as EmailOutboxStatus;
  const theme = row.themeChoice;
  const item: EmailOutboxItemJson = {
    id: row.id,
    created_at_millis: row.createdAt,
    updated_at_millis: row.updatedAt,
    tsx_source: tsxSource,
    theme_id: typeof theme === "string" ? theme : null,
    to: row.recipient as EmailOutboxRecipient,
    variables: (row.variables ?? {}) as Record<string, unknown>,
    skip_deliverability_check: false,
    scheduled_at_millis: row.scheduledAt,
    created_with: row.createdWith === "draft" ? "draft" : "programmatic-call",
    email_draft_id: row.draftId,
    email_programmatic_call_template_id: row.templateId,
    send_retries: row.sendRetries,
    next_send_retry_at_millis: row.nextSendRetryAt,
    send_attempt_errors: (row.sendAttemptErrors as EmailOutboxAttemptError[] | null) ?? null,
    status,
    simple_status: simpleStatusOf(status),
    is_paused: status === "paused",
    has_rendered: row.renderedAt !== null && row.renderError === null,
    has_delivered: status === "sent",
    render_fallback_error: row.renderFallbackError,
  };
  if (row.startedRenderingAt !== null) item.started_rendering_at_millis = row.startedRenderingAt;
  if (item.has_rendered) {
    item.rendered_at_millis = row.renderedAt!;
    item.subject = row.subject ?? "";
    item.html = row.html;
    item.text = row.text;
    item.is_transactional = row.isTransactional ?? true;
    item.is_high_priority = false;
    item.notification_category_id = row.notificationCategoryId;
  }
  if (status === "render-error") {
    item.rendered_at_millis = row.renderedAt ?? row.updatedAt;
    item.render_error = row.renderError ?? "Unknown render error";
  }
  if (row.startedSendingAt !== null && item.has_rendered) item.started_sending_at_millis = row.startedSendingAt;
  if (status === "sent") {
    item.delivered_at_millis = row.finishedSendingAt ?? row.updatedAt;
    item.can_have_delivery_info = false;
  }
  if (status === "server-error") {
    item.error_at_millis = row.finishedSendingAt ?? row.updatedAt;
    item.server_error = row.serverError ?? "Unknown send error";
  }
  if (status === "skipped") {
    item.skipped_at_millis = row.updatedAt;
    item.skipped_reason = row.skippedReason ?? "UNKNOWN";
    item.skipped_details = (row.skippedDetails ?? {}) as Record<string, unknown>;
  }
  return item;
}
