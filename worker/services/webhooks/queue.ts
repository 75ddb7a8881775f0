/**
 * Webhook dispatch, at least once, through the WEBHOOK_QUEUE Cloudflare Queue:
 * - after a response, the webhook events its request built are enqueued (an "event" message);
 * - the consumer loads the event row (none: its batch failed, so it is dropped; an event is never
 *   invented), builds the payload from D1, creates one delivery per matching enabled endpoint and
 *   attempts each; a failed attempt with retries left becomes a "delivery" message with a delay;
 * - the cron sweeps what a crash lost: committed events with no delivery, and overdue deliveries.
 * Deliveries are unique per (endpoint, event) and claimed before each attempt, so a message seen
 * twice never sends an attempt twice.
 */
import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE } from "@doorman/shared/wire-webhooks";
import { insertDeliveries, listOverdueDeliveries, pruneDeliveryRows, type WebhookDeliveryRow } from "../../db/queries/webhook-deliveries";
import { findEventRow, listUndispatchedEvents } from "../../db/queries/webhook-events";
import { hasEnabledWebhookEndpoint, listEndpointsForEvent, type WebhookEndpointRow } from "../../db/queries/webhooks";
import type { Deps } from "../deps";
import { type AttemptResult, attemptDelivery } from "./delivery";
import { messageIdOf } from "./message-id";
import { buildWebhookPayload, isWebhookEventType, type WebhookPayload } from "./payloads";

export type WebhookMessage = { kind: "event"; projectId: string; eventId: string } | { kind: "delivery"; deliveryId: string };

/** Queues allow at most 12 h of delay per message. */
const MAX_DELAY_SECONDS = 12 * 3600;

async function enqueue(deps: Deps, message: WebhookMessage, delaySeconds = 0): Promise<void> {
  await deps.env.WEBHOOK_QUEUE.send(message, { delaySeconds: Math.min(Math.max(0, Math.ceil(delaySeconds)), MAX_DELAY_SECONDS) });
}

/**
 * After a response: enqueues the webhook-type events the request built statements for (committed
 * or not: the consumer checks), for projects that have an enabled endpoint.
 */
export async function enqueueRecordedWebhookEvents(
  deps: Deps,
  recorded: { id: string; projectId: string; type: string }[],
): Promise<number> {
  const candidates = recorded.filter((e) => isWebhookEventType(e.type));
  if (candidates.length === 0) return 0;
  const projects = [...new Set(candidates.map((e) => e.projectId))];
  const listening = new Set<string>();
  for (const projectId of projects) if (await hasEnabledWebhookEndpoint(deps.db, projectId)) listening.add(projectId);
  const messages = candidates
    .filter((e) => listening.has(e.projectId))
    .map((e) => ({ body: { kind: "event", projectId: e.projectId, eventId: e.id } satisfies WebhookMessage }));
  if (messages.length > 0) await deps.env.WEBHOOK_QUEUE.sendBatch(messages);
  return messages.length;
}

/** After an attempt: a retry goes back on the queue with its delay. */
async function followUp(deps: Deps, deliveryId: string, result: AttemptResult): Promise<AttemptResult> {
  if (result.outcome === "retry") await enqueue(deps, { kind: "delivery", deliveryId }, result.delaySeconds);
  return result;
}

function newDelivery(deps: Deps, endpoint: WebhookEndpointRow, payload: WebhookPayload, eventId: string | null, messageId: string) {
  const now = deps.now();
  return {
    id: deps.random.uuid(),
    projectId: endpoint.projectId,
    endpointId: endpoint.id,
    eventId,
    messageId,
    type: payload.type,
    payload: JSON.stringify(payload),
    status: "pending",
    attempts: 0,
    nextAttemptAt: now,
    createdAt: now,
    updatedAt: now,
  } satisfies WebhookDeliveryRow;
}

export type EventDispatch = { outcome: "dropped" | "no_payload" } | { outcome: "dispatched"; deliveries: number };

/** An "event" message: the deliveries of one committed event, each attempted once now. */
export async function dispatchEvent(deps: Deps, projectId: string, eventId: string): Promise<EventDispatch> {
  const event = await findEventRow(deps.db, projectId, eventId);
  // No row: the request's batch failed. Nothing happened, so nothing is sent.
  if (!event) return { outcome: "dropped" };
  const payload = await buildWebhookPayload(deps.db, event);
  if (!payload) return { outcome: "no_payload" };
  const endpoints = await listEndpointsForEvent(deps.db, projectId, event.type, event.createdAt);
  const created = await insertDeliveries(
    deps.db,
    endpoints.map((e) => newDelivery(deps, e, payload, event.id, messageIdOf(event.id))),
  );
  for (const delivery of created) await followUp(deps, delivery.id, await attemptDelivery(deps, delivery.id));
  return { outcome: "dispatched", deliveries: created.length };
}

/** A "delivery" message (a scheduled retry or a resend): one attempt if it is due. */
export async function dispatchDelivery(deps: Deps, deliveryId: string): Promise<AttemptResult> {
  return followUp(deps, deliveryId, await attemptDelivery(deps, deliveryId));
}

/** Handles one queue message. */
export function handleWebhookMessage(deps: Deps, message: WebhookMessage): Promise<unknown> {
  return message.kind === "event" ? dispatchEvent(deps, message.projectId, message.eventId) : dispatchDelivery(deps, message.deliveryId);
}

/**
 * "Send test event": a `stack.test` delivery to one endpoint, attempted within the request (later
 * retries go through the queue like any other). Answers whether this first attempt succeeded.
 */
export async function sendTestWebhook(deps: Deps, endpoint: WebhookEndpointRow): Promise<{ delivery: string; result: AttemptResult }> {
  const payload = {
    type: WEBHOOK_TEST_EVENT_TYPE,
    data: { message: "Doorman webhook test event triggered from the Doorman console.", endpointUrl: endpoint.url },
  };
  const [delivery] = await insertDeliveries(deps.db, [newDelivery(deps, endpoint, payload, null, messageIdOf(deps.random.uuid()))]);
  if (!delivery) throw new Error("test delivery was not created");
  return { delivery: delivery.id, result: await dispatchDelivery(deps, delivery.id) };
}

/** Resend: the delivery is due now, with a fresh schedule; the queue carries the attempt. */
export function enqueueResend(deps: Deps, deliveryId: string): Promise<void> {
  return enqueue(deps, { kind: "delivery", deliveryId });
}

/** How far back the cron looks for events whose enqueue was lost, and how long it leaves a fresh one to the normal path. */
const SWEEP_WINDOW_MS = 24 * 3600_000;
const SWEEP_GRACE_MS = 5 * 60_000;
const SWEEP_LIMIT = 500;
/** Finished deliveries are kept this long for the log. */
export const DELIVERY_RETENTION_DAYS = 30;

/**
 * The cron's sweep: events committed in the last day (and older than 5 minutes) that a matching
 * endpoint has no delivery of are enqueued again; deliveries overdue by 5 minutes get their message back.
 */
export async function sweepWebhooks(deps: Deps): Promise<{ events: number; deliveries: number }> {
  const now = deps.now();
  const lost = await listUndispatchedEvents(deps.db, WEBHOOK_EVENT_TYPES, now - SWEEP_WINDOW_MS, now - SWEEP_GRACE_MS, SWEEP_LIMIT);
  for (const e of lost) await enqueue(deps, { kind: "event", projectId: e.projectId, eventId: e.id });
  const overdue = await listOverdueDeliveries(deps.db, now, SWEEP_GRACE_MS, SWEEP_LIMIT);
  for (const d of overdue) await enqueue(deps, { kind: "delivery", deliveryId: d.id });
  return { events: lost.length, deliveries: overdue.length };
}

/** The daily prune of finished deliveries (their attempts go with them). */
export function pruneWebhookDeliveries(deps: Deps): Promise<number> {
  return pruneDeliveryRows(deps.db, deps.now() - DELIVERY_RETENTION_DAYS * 86_400_000);
}
