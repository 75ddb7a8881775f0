/** Webhook endpoints and deliveries as the wire shows them; the signing secret never appears here. */
import type { WebhookDeliveryJson, WebhookEndpointJson } from "@doorman/shared/wire-webhooks";
import type { WebhookAttemptRow, WebhookDeliveryRow } from "../db/queries/webhook-deliveries";
import type { WebhookEndpointRow } from "../db/queries/webhooks";

export function webhookEndpointView(row: WebhookEndpointRow): WebhookEndpointJson {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    event_types: row.eventTypes,
    created_at_millis: row.createdAt,
    updated_at_millis: row.updatedAt,
    disabled: row.disabled,
    disabled_reason: row.disabledReason ?? null,
    disabled_at_millis: row.disabledAt ?? null,
  };
}

function parsed(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    return payload;
  }
}

/** A delivery with its attempts; "sending" (an attempt under way) shows as pending. */
export function webhookDeliveryView(row: WebhookDeliveryRow, attempts: WebhookAttemptRow[]): WebhookDeliveryJson {
  return {
    id: row.id,
    endpoint_id: row.endpointId,
    event_id: row.eventId,
    message_id: row.messageId,
    type: row.type,
    payload: parsed(row.payload),
    status: row.status === "succeeded" || row.status === "failed" ? row.status : "pending",
    attempt_count: row.attempts,
    next_attempt_at_millis: row.status === "pending" ? row.nextAttemptAt : null,
    created_at_millis: row.createdAt,
    attempts: attempts.map((a) => ({
      id: a.id,
      attempted_at_millis: a.attemptedAt,
      status_code: a.statusCode,
      latency_ms: a.latencyMs,
      response_excerpt: a.responseExcerpt,
      error: a.error,
    })),
  };
}
