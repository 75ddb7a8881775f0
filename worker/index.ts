/**
 * Worker entry: the Hono app as the fetch handler, the crons (daily: event retention and old
 * webhook deliveries; every 10 minutes: the webhook sweep), the webhook and email queues' consumer, and the
 * Durable Object classes.
 */
import { app } from "./app";
import type { Env } from "./env";
import { makeDeps } from "./lib/context";
import { DEV_SCHEDULED_PATH, devScheduled, runScheduled } from "./scheduled";
import { type EmailBatchMessage, handleEmailBatch, isEmailBatchMessage } from "./services/email-queue";
import { handleWebhookMessage, type WebhookMessage } from "./services/webhook-queue";

export { SessionDO } from "./durable/session-do";

export default {
  fetch(request: Request, env: Env, ctx: ExecutionContext) {
    if (new URL(request.url).pathname === DEV_SCHEDULED_PATH) return devScheduled(request, env);
    return app.fetch(request, env, ctx);
  },
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduled(env, controller.cron));
  },
  async queue(batch, env) {
    const deps = makeDeps(env, { origin: "https://queue.invalid" });
    for (const message of batch.messages) {
      try {
        // Two queues, one consumer: a big email send's batches (email-queue.ts) and webhook deliveries.
        if (isEmailBatchMessage(message.body)) await handleEmailBatch(deps, message.body);
        else await handleWebhookMessage(deps, message.body);
        message.ack();
      } catch (err) {
        // Unexpected (D1 unavailable…): the queue retries the message; deliveries are claimed and email log ids
        // fixed per recipient, so nothing is sent twice.
        console.error(`${batch.queue} message failed`, err);
        message.retry({ delaySeconds: 30 });
      }
    }
  },
} satisfies ExportedHandler<Env, WebhookMessage | EmailBatchMessage>;
