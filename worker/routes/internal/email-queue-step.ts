/**
 * GET /internal/email-queue-step: the reference's cron hook that advances the email pipeline
 * (Authorization: Bearer CRON_SECRET). Doorman's queue consumer sends on its own; one step here is the
 * outbox sweep the 10-minute cron runs (lost messages re-enqueued, stuck rows settled), so an external
 * scheduler can drive it too. It answers after one pass: slow work stays in the queue.
 */

import { z } from "zod";
import { requireCronCaller } from "../../http/cron-caller";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { sweepOutbox } from "../../services/email/outbox-consumer";

const step = defineRoute({
  method: "get",
  path: "/",
  summary: "Run one step of the email queue: the outbox sweep (cron; Authorization: Bearer CRON_SECRET)",
  description: "only_one_step is accepted for the reference's callers; Doorman always runs one pass.",
  // The cron's secret is the credential; x-stack-* headers are not needed.
  access: "public",
  query: z.strictObject({ only_one_step: z.enum(["true", "false"]).optional() }),
  response: z.object({ ok: z.boolean() }),
  errors: ["SCHEMA_ERROR"],
});

export const emailQueueStepRoutes = routeGroup();
addRoute(emailQueueStepRoutes, step, async (c) => {
  const deps = requireCronCaller(c);
  await sweepOutbox(deps);
  return c.json({ ok: true });
});
