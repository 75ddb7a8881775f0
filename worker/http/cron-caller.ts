/**
 * The guard of the routes an external scheduler calls (Authorization: Bearer CRON_SECRET): no header
 * is the reference's schema error, a wrong secret a plain 401. Answers the request's deps.
 */
import { KnownError } from "@doorman/shared/known-errors";
import type { Context } from "hono";
import { StatusError } from "../lib/errors";
import type { Deps } from "../services/deps";
import { isCronCaller } from "../services/email/failed-digest";
import type { AppEnv } from "./hono-env";

export function requireCronCaller(c: Context<AppEnv>): Deps {
  const authorization = c.req.header("authorization");
  if (authorization === undefined)
    throw new KnownError("SCHEMA_ERROR", {
      message: `Request validation failed on ${c.req.method} ${new URL(c.req.url).pathname}:\n  - headers.authorization must be defined`,
    });
  const deps = c.get("deps");
  // Why: these routes run work for every project; only the operator's scheduler may start it.
  if (!isCronCaller(deps, authorization)) throw new StatusError(401, "Unauthorized");
  return deps;
}
