/** GET /health and POST /check-feature-support. */

import { healthSchema } from "@doorman/shared/wire-misc";
import { z } from "zod";
import { pingDatabase } from "../db/queries/health";
import { addRoute, defineRoute, routeGroup } from "../http/route";

const health = defineRoute({
  method: "get",
  path: "/health",
  summary: "Liveness, with a database round trip",
  access: "public",
  response: healthSchema,
});

const checkFeatureSupport = defineRoute({
  method: "post",
  path: "/check-feature-support",
  summary: "Report a feature the SDK found unsupported; answers a text to show the developer",
  access: "public",
  body: z.looseObject({ feature_name: z.string().max(256).optional() }),
  response: { status: 200, description: "Why the feature is unavailable", schema: z.string(), contentType: "text/plain" },
});

export const healthRoutes = routeGroup();
addRoute(healthRoutes, health, async (c) => {
  const started = Date.now();
  await pingDatabase(c.get("deps").db);
  return c.json({ status: "ok", database_ms: Date.now() - started });
});
// The SDK reports a feature it found unsupported and shows the answer's text to the developer.
addRoute(healthRoutes, checkFeatureSupport, (c, { body }) => {
  const name = body.feature_name ?? "This feature";
  return c.text(`${name} is not supported by this Doorman server yet. Please report it at the Doorman issue tracker if you need it.`);
});
