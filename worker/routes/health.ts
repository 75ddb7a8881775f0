/** GET /health and POST /check-feature-support. */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../lib/hono-env";
import { parseBody } from "../lib/validate";

export const healthRoutes = new Hono<AppEnv>()
  .get("/health", async (c) => {
    const started = Date.now();
    await c.env.DB.prepare("SELECT 1").first();
    return c.json({ status: "ok", database_ms: Date.now() - started });
  })
  // The SDK reports a feature it found unsupported and shows the answer's text to the developer.
  .post("/check-feature-support", async (c) => {
    const body = await parseBody(c, z.looseObject({ feature_name: z.string().max(256).optional() }));
    const name = body.feature_name ?? "This feature";
    return c.text(`${name} is not supported by this Doorman server yet. Please report it at the Doorman issue tracker if you need it.`);
  });
