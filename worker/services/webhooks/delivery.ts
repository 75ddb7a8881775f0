/**
 * One attempt of one webhook delivery: claim it, sign the payload (Standard Webhooks: webhook-id,
 * webhook-timestamp, webhook-signature v1), POST it within bounds (config.outbound.webhook: time to
 * first byte, total time, body bytes; no redirect followed), record the attempt, and
 * either finish the delivery or schedule the next attempt. Also the disabling rule.
 */
import { Webhook } from "standardwebhooks";
import { claimDelivery, recordAttempt, type WebhookAttemptRow, type WebhookDeliveryRow } from "../../db/queries/webhook-deliveries";
import { countEndpointFailure, findWebhookEndpoint, resetEndpointFailures } from "../../db/queries/webhooks";
import { boundedFetch } from "../../lib/outbound-fetch";
import type { Deps } from "../deps";
import { openSigningSecret } from "./endpoints";
import { checkWebhookUrl } from "./urls";

/**
 * Delays before each retry, after a failed attempt (Svix's schedule, continued with 10 h steps):
 * 12 attempts in all, the last about 67.6 h after the first, inside the 3-day bound.
 */
export const RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 36000, 36000, 36000, 36000, 36000] as const;
/** Deliveries in a row that exhaust every retry before the endpoint is disabled. */
export const DISABLE_AFTER_FAILED_DELIVERIES = 3;
/** How long a claimed delivery stays the claimer's before another consumer may take it over. */
const LEASE_MS = 60_000;
/** How much of the receiver's answer the log keeps. */
const EXCERPT_CHARS = 1_000;

export type AttemptResult =
  | { outcome: "succeeded" | "failed" | "endpoint_disabled" | "not_due" }
  | { outcome: "retry"; delaySeconds: number };

type HttpAnswer = { statusCode: number | null; excerpt: string | null; error: string | null; latencyMs: number };

/** POSTs within `deps.config.outbound.webhook`: a hang, a redirect, a drip or a flood is a failed attempt with its reason. */
async function post(deps: Deps, url: string, headers: Record<string, string>, body: string): Promise<HttpAnswer> {
  // Latency is a measure, not a decision: the wall clock, not the injected one.
  const started = Date.now();
  const answer = await boundedFetch(
    url,
    { method: "POST", headers: { "content-type": "application/json", "user-agent": "Doorman-Webhooks/1", ...headers }, body },
    deps.config.outbound.webhook,
  );
  const latencyMs = Date.now() - started;
  if (!answer.ok) return { statusCode: answer.status, excerpt: null, error: answer.message.slice(0, EXCERPT_CHARS), latencyMs };
  return { statusCode: answer.status, excerpt: answer.body.slice(0, EXCERPT_CHARS), error: null, latencyMs };
}

/** The Standard Webhooks headers of a payload, signed with the endpoint's `whsec_` secret. */
export function signedHeaders(secret: string, messageId: string, nowMs: number, body: string): Record<string, string> {
  const at = new Date(nowMs);
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(nowMs / 1000)),
    "webhook-signature": new Webhook(secret).sign(messageId, at, body),
  };
}

async function sendOnce(deps: Deps, delivery: WebhookDeliveryRow, url: string, secret: string | null): Promise<HttpAnswer> {
  // Checked again at send time: the rules may be stricter where the endpoint was created.
  const check = checkWebhookUrl(url, { development: deps.config.environment === "development" });
  if (!check.ok) return { statusCode: null, excerpt: null, error: `URL refused: ${check.message}`, latencyMs: 0 };
  if (!secret)
    return { statusCode: null, excerpt: null, error: "The signing secret cannot be opened (the server secret changed).", latencyMs: 0 };
  return post(deps, check.url.toString(), signedHeaders(secret, delivery.messageId, deps.now(), delivery.payload), delivery.payload);
}

/**
 * Makes one attempt of a delivery if it is due. Returns what happened, and for a failure that has
 * retries left the delay until the next attempt (the caller schedules it on the queue).
 */
export async function attemptDelivery(deps: Deps, deliveryId: string): Promise<AttemptResult> {
  const now = deps.now();
  const delivery = await claimDelivery(deps.db, deliveryId, now, LEASE_MS);
  if (!delivery) return { outcome: "not_due" };
  const endpoint = await findWebhookEndpoint(deps.db, delivery.projectId, delivery.endpointId);
  if (!endpoint || endpoint.disabled) {
    // A disabled endpoint is skipped: no request; "resend" tries again once it is enabled.
    await recordAttempt(deps.db, delivery.id, skippedAttempt(deps, delivery.id, now), now);
    return { outcome: "endpoint_disabled" };
  }
  const answer = await sendOnce(deps, delivery, endpoint.url, await openSigningSecret(deps, endpoint));
  // A 2xx whose body passed the cap or never ended is still a failure: the error says why.
  const succeeded = answer.error === null && answer.statusCode !== null && answer.statusCode >= 200 && answer.statusCode < 300;
  const attemptNumber = delivery.attempts + 1;
  const delay = succeeded ? undefined : RETRY_DELAYS_SECONDS[attemptNumber - 1];
  const status = succeeded ? "succeeded" : delay === undefined ? "failed" : "pending";
  await recordAttempt(
    deps.db,
    delivery.id,
    {
      attempt: {
        id: deps.random.uuid(),
        deliveryId: delivery.id,
        attemptedAt: now,
        statusCode: answer.statusCode,
        latencyMs: answer.latencyMs,
        responseExcerpt: answer.excerpt,
        error: answer.error,
      },
      status,
      nextAttemptAt: status === "pending" && delay !== undefined ? now + delay * 1000 : null,
    },
    now,
  );
  if (succeeded) {
    await resetEndpointFailures(deps.db, endpoint.id);
    return { outcome: "succeeded" };
  }
  if (delay !== undefined) return { outcome: "retry", delaySeconds: delay };
  const last = answer.error ?? (answer.statusCode !== null ? `HTTP ${answer.statusCode}` : "no answer");
  const reason = `${DISABLE_AFTER_FAILED_DELIVERIES} deliveries in a row failed after every retry (last: ${last}).`;
  await countEndpointFailure(deps.db, endpoint.id, DISABLE_AFTER_FAILED_DELIVERIES, reason, now);
  return { outcome: "failed" };
}

function skippedAttempt(deps: Deps, deliveryId: string, now: number) {
  const attempt: WebhookAttemptRow = {
    id: deps.random.uuid(),
    deliveryId,
    attemptedAt: now,
    statusCode: null,
    latencyMs: 0,
    responseExcerpt: null,
    error: "Not sent: the endpoint is disabled or was deleted.",
  };
  return { attempt, status: "failed" as const, nextAttemptAt: null };
}
