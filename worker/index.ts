/**
 * Worker entry: the Hono app as the fetch handler, the crons (daily: event retention and old
 * webhook deliveries; every 10 minutes: the webhook sweep), the webhook and email queues' consumer, and the
 * Durable Object classes.
 */
import { app } from "./app";
import type { Env } from "./env";
import { DEV_SCHEDULED_PATH, devScheduled, runScheduled } from "./scheduled";
import { makeDeps } from "./services/deps";
import { isOutboxMessage, type OutboxMessage } from "./services/email/outbox";
import { processOutboxEmail } from "./services/email/outbox-consumer";
import { handleWebhookMessage, type WebhookMessage } from "./services/webhooks/queue";

export { SessionDO } from "./durable/session-do";

/** Messages of one queue batch handled at once (Workers allow six open connections per invocation). */
const QUEUE_CONCURRENCY = 4;

export default {
  fetch(request: Request, env: Env, ctx: ExecutionContext) {
    // The substring test first: parsing every request's URL for this one development path was a measurable cost.
    if (request.url.includes(DEV_SCHEDULED_PATH) && new URL(request.url).pathname === DEV_SCHEDULED_PATH) return devScheduled(request, env);
    return app.fetch(request, env, ctx);
  },
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduled(env, controller.cron));
  },
  async queue(batch, env) {
    const deps = makeDeps(env, { origin: "https://queue.invalid" });
    const handle = async (message: Message<WebhookMessage | OutboxMessage>) => {
      try {
        // Two queues, one consumer: the email outbox (services/email/outbox-consumer.ts) and webhook deliveries.
        if (isOutboxMessage(message.body)) await processOutboxEmail(deps, message.body.id);
        else await handleWebhookMessage(deps, message.body);
        message.ack();
      } catch (err) {
        // Unexpected (D1 unavailable…): the queue retries the message; deliveries and outbox rows are claimed
        // before each attempt, so nothing is sent twice (a row left mid-send is settled by the sweep).
        console.error(`${batch.queue} message failed`, err);
        message.retry({ delaySeconds: 30 });
      }
    };
    // A few at a time: each may hold an SMTP or HTTP connection, and an invocation has six.
    const messages = [...batch.messages];
    const lanes = Array.from({ length: Math.min(QUEUE_CONCURRENCY, messages.length) }, async () => {
      for (let m = messages.shift(); m; m = messages.shift()) await handle(m);
    });
    await Promise.all(lanes);
  },
} satisfies ExportedHandler<Env, WebhookMessage | OutboxMessage>;
