/**
 * Webhooks on the wire (issue 13): the event types and their payloads (the reference's), the
 * endpoints and deliveries API under /internal/webhooks, POST /internal/send-test-webhook and
 * POST /webhooks/svix-token.
 */
import { z } from "zod";
import { WEBHOOK_EVENT_TYPES } from "./webhook-event-types";

export { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE, type WebhookEventType } from "./webhook-event-types";

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  /** Empty: every event type. */
  event_types: z.array(z.string()),
  created_at_millis: z.number(),
  updated_at_millis: z.number(),
  disabled: z.boolean(),
  /** Why the endpoint is disabled: set by the owner, or by the disabling rule (docs/webhooks.md). */
  disabled_reason: z.string().nullable(),
  disabled_at_millis: z.number().nullable(),
});

/** The created endpoint, with its signing secret: shown this once, never again. */
export const webhookEndpointCreatedSchema = webhookEndpointSchema.extend({ secret: z.string() });

/** An endpoint's signing secret: revealed to an owner (the reveal is logged) or newly made by a rotation. */
export const webhookEndpointSecretSchema = z.object({ secret: z.string() });

export const webhookEndpointListSchema = z.object({ items: z.array(webhookEndpointSchema), is_paginated: z.literal(false) });

const eventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);

export const webhookEndpointCreateSchema = z.strictObject({
  url: z.string().min(1).max(2048),
  description: z.string().max(500).optional(),
  event_types: z.array(eventTypeSchema).max(WEBHOOK_EVENT_TYPES.length).optional(),
});

export const webhookEndpointUpdateSchema = z.strictObject({
  url: z.string().min(1).max(2048).optional(),
  description: z.string().max(500).optional(),
  event_types: z.array(eventTypeSchema).max(WEBHOOK_EVENT_TYPES.length).optional(),
  disabled: z.boolean().optional(),
});

export const webhookAttemptSchema = z.object({
  id: z.string(),
  attempted_at_millis: z.number(),
  /** Null when no HTTP answer came (network error, time limit, refused URL). */
  status_code: z.number().nullable(),
  latency_ms: z.number(),
  response_excerpt: z.string().nullable(),
  error: z.string().nullable(),
});

export const webhookDeliverySchema = z.object({
  id: z.string(),
  endpoint_id: z.string(),
  event_id: z.string().nullable(),
  /** The `webhook-id` header, the same on every attempt. */
  message_id: z.string(),
  type: z.string(),
  /** The JSON body as sent and signed: `{ type, data }`. */
  payload: z.unknown(),
  status: z.enum(["pending", "succeeded", "failed"]),
  attempt_count: z.number(),
  next_attempt_at_millis: z.number().nullable(),
  created_at_millis: z.number(),
  attempts: z.array(webhookAttemptSchema),
});

export const webhookDeliveryListSchema = z.object({
  items: z.array(webhookDeliverySchema),
  is_paginated: z.literal(true),
  pagination: z.object({ next_cursor: z.string().nullable() }),
});

/** POST /internal/send-test-webhook: the reference's body and answer. */
export const sendTestWebhookBodySchema = z.strictObject({ endpoint_id: z.string().min(1).max(64) });
export const sendTestWebhookResultSchema = z.object({ success: z.boolean(), error_message: z.string().optional() });

/** POST /webhooks/svix-token: the reference's answer; the token is the credential of /internal/webhooks (Bearer). */
export const svixTokenSchema = z.object({ token: z.string() });

export type WebhookEndpointJson = z.infer<typeof webhookEndpointSchema>;
export type WebhookEndpointSecretJson = z.infer<typeof webhookEndpointSecretSchema>;
export type WebhookEndpointCreatedJson = z.infer<typeof webhookEndpointCreatedSchema>;
export type WebhookAttemptJson = z.infer<typeof webhookAttemptSchema>;
export type WebhookDeliveryJson = z.infer<typeof webhookDeliverySchema>;
export type WebhookDeliveryListJson = z.infer<typeof webhookDeliveryListSchema>;
export type SendTestWebhookResultJson = z.infer<typeof sendTestWebhookResultSchema>;
