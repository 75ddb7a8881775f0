/**
 * The admin app's webhooks calls (Doorman's built-in endpoints API, where the reference's SDK
 * hands a Svix token to Svix's portal): endpoints, the delivery log with attempts, resend, test
 * events and the token. StackAdminApp's methods delegate here.
 */
import type {
  SendTestWebhookResultJson,
  WebhookDeliveryJson,
  WebhookDeliveryListJson,
  WebhookEndpointCreatedJson,
  WebhookEndpointJson,
  WebhookEndpointSecretJson,
} from "../shared/wire-webhooks";

export { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "../shared/webhook-event-types";

type Request = <T>(path: string, options?: { method?: string; body?: unknown }) => Promise<T>;

export type WebhookEndpoint = {
  id: string;
  url: string;
  description: string;
  /** Empty: every event type. */
  eventTypes: string[];
  createdAt: Date;
  updatedAt: Date;
  disabled: boolean;
  /** Why it is disabled (by an owner, or by the disabling rule after repeated failures). */
  disabledReason: string | null;
  disabledAt: Date | null;
};

export type WebhookAttempt = {
  id: string;
  attemptedAt: Date;
  statusCode: number | null;
  latencyMs: number;
  responseExcerpt: string | null;
  error: string | null;
};

export type WebhookDelivery = {
  id: string;
  endpointId: string;
  eventId: string | null;
  messageId: string;
  type: string;
  payload: unknown;
  status: "pending" | "succeeded" | "failed";
  attemptCount: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
  attempts: WebhookAttempt[];
};

export type WebhookEndpointInput = { url?: string; description?: string; eventTypes?: string[]; disabled?: boolean };

const date = (ms: number | null) => (ms === null ? null : new Date(ms));

function endpointFromJson(e: WebhookEndpointJson): WebhookEndpoint {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    eventTypes: e.event_types,
    createdAt: new Date(e.created_at_millis),
    updatedAt: new Date(e.updated_at_millis),
    disabled: e.disabled,
    disabledReason: e.disabled_reason,
    disabledAt: date(e.disabled_at_millis),
  };
}

function deliveryFromJson(d: WebhookDeliveryJson): WebhookDelivery {
  return {
    id: d.id,
    endpointId: d.endpoint_id,
    eventId: d.event_id,
    messageId: d.message_id,
    type: d.type,
    payload: d.payload,
    status: d.status,
    attemptCount: d.attempt_count,
    nextAttemptAt: date(d.next_attempt_at_millis),
    createdAt: new Date(d.created_at_millis),
    attempts: d.attempts.map((a) => ({
      id: a.id,
      attemptedAt: new Date(a.attempted_at_millis),
      statusCode: a.status_code,
      latencyMs: a.latency_ms,
      responseExcerpt: a.response_excerpt,
      error: a.error,
    })),
  };
}

const endpointPath = (id: string) => `/internal/webhooks/endpoints/${encodeURIComponent(id)}`;

export async function listWebhookEndpoints(request: Request): Promise<WebhookEndpoint[]> {
  return (await request<{ items: WebhookEndpointJson[] }>("/internal/webhooks/endpoints")).items.map(endpointFromJson);
}

export async function createWebhookEndpoint(
  request: Request,
  input: { url: string; description?: string; eventTypes?: string[] },
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const created = await request<WebhookEndpointCreatedJson>("/internal/webhooks/endpoints", {
    body: { url: input.url, description: input.description, event_types: input.eventTypes },
  });
  return { endpoint: endpointFromJson(created), secret: created.secret };
}

export async function updateWebhookEndpoint(request: Request, id: string, input: WebhookEndpointInput): Promise<WebhookEndpoint> {
  const body = { url: input.url, description: input.description, event_types: input.eventTypes, disabled: input.disabled };
  return endpointFromJson(await request<WebhookEndpointJson>(endpointPath(id), { method: "PATCH", body }));
}

export async function deleteWebhookEndpoint(request: Request, id: string): Promise<void> {
  await request(endpointPath(id), { method: "DELETE" });
}

/** The endpoint's signing secret (the reveal is logged in the project's event log). */
export async function revealWebhookSecret(request: Request, id: string): Promise<string> {
  return (await request<WebhookEndpointSecretJson>(`${endpointPath(id)}/secret`)).secret;
}

/** A new signing secret for the endpoint; the old one signs nothing more. */
export async function rotateWebhookSecret(request: Request, id: string): Promise<string> {
  return (await request<WebhookEndpointSecretJson>(`${endpointPath(id)}/secret/rotate`, { method: "POST", body: {} })).secret;
}

export async function listWebhookDeliveries(
  request: Request,
  options: { endpointId?: string; cursor?: string; limit?: number },
): Promise<{ items: WebhookDelivery[]; nextCursor: string | null }> {
  const q = new URLSearchParams();
  if (options.endpointId) q.set("endpoint_id", options.endpointId);
  if (options.cursor) q.set("cursor", options.cursor);
  if (options.limit) q.set("limit", String(options.limit));
  const qs = q.toString();
  const page = await request<WebhookDeliveryListJson>(`/internal/webhooks/deliveries${qs ? `?${qs}` : ""}`);
  return { items: page.items.map(deliveryFromJson), nextCursor: page.pagination.next_cursor };
}

export async function resendWebhookDelivery(request: Request, id: string): Promise<WebhookDelivery> {
  return deliveryFromJson(
    await request<WebhookDeliveryJson>(`/internal/webhooks/deliveries/${encodeURIComponent(id)}/resend`, { method: "POST", body: {} }),
  );
}

export async function sendTestWebhook(
  request: Request,
  endpointId: string,
): Promise<{ success: true } | { success: false; errorMessage: string }> {
  const res = await request<SendTestWebhookResultJson>("/internal/send-test-webhook", { body: { endpoint_id: endpointId } });
  return res.success ? { success: true } : { success: false, errorMessage: res.error_message ?? "Webhook not delivered." };
}

export async function getSvixToken(request: Request): Promise<string> {
  return (await request<{ token: string }>("/webhooks/svix-token", { body: {} })).token;
}
