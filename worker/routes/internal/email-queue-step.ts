/**
 * GET /internal/email-queue-step: the reference's cron hook that advances the email pipeline
 * (Authorization: Bearer CRON_SECRET). Doorman's queue consumer sends on its own; one step here is the
 * outbox sweep the 10-minute cron runs (lost messages re-enqueued, stuck rows settled), so an external
 * scheduler can drive it too. It answers after one pass: slow work stays in the queue.
 */

import { KnownError } from "@doorman/shared/known-errors";
import { z } from "zod";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { StatusError } from "../../lib/errors";
import { isCronCaller } from "../../services/email/failed-digest";
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
  const authorization = c.req.header("authorization");
  if (authorization === undefined)
    throw new KnownError("SCHEMA_ERROR", {
      message: `Request validation failed on GET ${new URL(c.req.url).pathname}:\n  - headers.authorization must be defined`,
    });
  const deps = c.get("deps");
  if (!isCronCaller(deps, authorization)) throw new StatusError(401, "Unauthorized");
  await sweepOutbox(deps);
  return c.json({ ok: true });
});
