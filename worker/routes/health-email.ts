/**
 * POST /health/email: the email pipeline's health for an operator's monitor, as the reference's
 * route of that path (Authorization: Bearer CRON_SECRET, the operator's scheduler secret; a plain 401
 * `Unauthorized` otherwise). 200 `{ success: true }`, or 503 when queued emails are overdue.
 */
import { KnownError } from "@doorman/shared/known-errors";
import { z } from "zod";
import { addRoute, defineRoute, routeGroup } from "../http/route";
import { StatusError } from "../lib/errors";
import { isCronCaller } from "../services/email/failed-digest";
import { checkEmailHealth } from "../services/email/monitor";

const emailHealth = defineRoute({
  method: "post",
  path: "/email",
  summary: "The email pipeline's health: no queued email overdue (monitor; Authorization: Bearer CRON_SECRET)",
  access: "public",
  response: [
    { status: 200, description: "The outbox is draining", schema: z.object({ success: z.literal(true) }) },
    { status: 503, description: "Queued emails are overdue", schema: z.object({ success: z.literal(false), error: z.string() }) },
  ],
  errors: ["SCHEMA_ERROR"],
});

export const healthEmailRoutes = routeGroup();
addRoute(healthEmailRoutes, emailHealth, async (c) => {
  const authorization = c.req.header("authorization");
  if (authorization === undefined)
    throw new KnownError("SCHEMA_ERROR", {
      message: `Request validation failed on POST ${new URL(c.req.url).pathname}:\n  - headers.authorization must be defined`,
    });
  const deps = c.get("deps");
  if (!isCronCaller(deps, authorization)) throw new StatusError(401, "Unauthorized");
  const health = await checkEmailHealth(deps);
  if (health.ok) return c.json({ success: true as const });
  return c.json({ success: false as const, error: `${health.overdue} queued email(s) are more than 5 minutes overdue.` }, 503);
});
