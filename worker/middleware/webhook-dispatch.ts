/**
 * After every response: the webhook-type events the request built statements for go to the
 * webhook queue (deps.defer, so the response never waits). Whether each batch committed is the
 * consumer's question: it drops an event whose row does not exist (services/webhooks/queue.ts).
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/hono-env";
import { enqueueRecordedWebhookEvents } from "../services/webhooks/queue";

export const webhookDispatch: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const deps = c.get("deps");
  if (!deps || deps.audit.recorded.length === 0) return;
  // Why after the response and not inside the batch: a queue send cannot join a D1 batch; a crash in
  // between loses only the enqueue, and the cron's sweep finds the committed event without a delivery.
  deps.defer(enqueueRecordedWebhookEvents(deps, [...deps.audit.recorded]));
};
