import { z } from "zod";
import { requireCronCaller } from "../http/cron-caller";
import { addRoute, defineRoute, routeGroup } from "../http/route";
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
  const deps = requireCronCaller(c);
  const health = await checkEmailHealth(deps);
  if (health.ok) return c.json({ success: true as const });
  return c.json({ success: false as const, error: `${health.overdue} queued email(s) are more than 5 minutes overdue.` }, 503);
});
