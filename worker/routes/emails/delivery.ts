/**
 * GET /emails/delivery-info (the project's sent/bounced/spam counts by hour, day, week and month, and
 * the capacity send-email is paced at) and POST /emails/capacity-boost (×4 for 4 hours), as the
 * reference (server or admin access).
 */
import { z } from "zod";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { activateCapacityBoost, deliveryInfo } from "../../services/email/capacity";

const windowStats = z.object({ sent: z.number(), bounced: z.number(), marked_as_spam: z.number() });

const info = defineRoute({
  method: "get",
  path: "/delivery-info",
  summary: "Delivery counts (last hour, day, week, month) and the capacity send-email is paced at",
  access: ["server", "admin"],
  response: z.object({
    stats: z.object({ hour: windowStats, day: windowStats, week: windowStats, month: windowStats }),
    capacity: z.object({
      rate_per_second: z.number(),
      boost_multiplier: z.number(),
      penalty_factor: z.number(),
      is_boost_active: z.boolean(),
      boost_expires_at: z.string().nullable(),
    }),
  }),
});

const boost = defineRoute({
  method: "post",
  path: "/capacity-boost",
  summary: "Multiply the project's email capacity by 4 for 4 hours",
  access: ["server", "admin"],
  body: z.looseObject({}).optional(),
  response: z.object({ expires_at: z.string() }),
  errors: ["EMAIL_CAPACITY_BOOST_ALREADY_ACTIVE"],
});

export const emailsDeliveryRoutes = routeGroup();
addRoute(emailsDeliveryRoutes, info, async (c, { auth }) => {
  const { stats, capacity, boostExpiresAt } = await deliveryInfo(c.get("deps"), auth.project.id);
  const view = (w: (typeof stats)["hour"]) => ({ sent: w.sent, bounced: w.bounced, marked_as_spam: w.markedAsSpam });
  return c.json({
    stats: { hour: view(stats.hour), day: view(stats.day), week: view(stats.week), month: view(stats.month) },
    capacity: {
      rate_per_second: capacity.ratePerSecond,
      boost_multiplier: capacity.boostMultiplier,
      penalty_factor: capacity.penaltyFactor,
      is_boost_active: capacity.isBoostActive,
      boost_expires_at: boostExpiresAt === null ? null : new Date(boostExpiresAt).toISOString(),
    },
  });
});
addRoute(emailsDeliveryRoutes, boost, async (c, { auth }) => {
  const started = unwrap(await activateCapacityBoost(c.get("deps"), auth.project.id));
  return c.json({ expires_at: new Date(started.expiresAt).toISOString() });
});
