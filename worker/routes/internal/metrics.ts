/** /internal/metrics: the project's counts and daily series for the console's overview (admin), in the reference's shape. */

import { metricsSchema } from "@doorman/shared/wire-metrics";
import { z } from "zod";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { queryBool } from "../../http/validate";
import { projectMetrics } from "../../services/metrics";
import { readProjectConfig } from "../../services/project-config/flat";
import { userServerView } from "../../services/user-view";

const get = defineRoute({
  method: "get",
  path: "/",
  summary:
    "The project's metrics: total users, sign-ups and daily active users per UTC day (today and the 30 days before), users by country, the latest sign-ups and most recently active users, sign-in methods on accounts, and (Doorman) sign-ins by method",
  description:
    "Anonymous users are left out unless include_anonymous=true. Daily active users and countries come from the event log's `user.active` events (one per user and UTC day, on sign-in and refresh); a user counts in the country of their latest located activity.",
  access: ["admin"],
  query: z.strictObject({ include_anonymous: queryBool.optional() }),
  response: metricsSchema,
});

export const internalMetricsRoutes = routeGroup();
addRoute(internalMetricsRoutes, get, async (c, { auth, query }) => {
  const m = await projectMetrics(c.get("deps"), auth.project, { includeAnonymous: query.include_anonymous ?? false });
  const config = readProjectConfig(auth.project.config);
  return c.json({
    total_users: m.totalUsers,
    daily_users: m.dailyUsers,
    daily_active_users: m.dailyActiveUsers,
    users_by_country: m.usersByCountry,
    recently_registered: m.recentlyRegistered.map((r) => userServerView(r, config)),
    recently_active: m.recentlyActive.map((r) => userServerView(r, config)),
    login_methods: m.loginMethods,
    sign_ins_by_method: m.signInsByMethod,
  });
});
