/**
 * The SCIM route group's authentication, before validation (who may call comes before what they
 * sent): the connection's bearer token, its enabled flag and rate limit (services/scim/auth.ts). The
 * caller found is kept for the request's handler, which reads it with scimCallerOf.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../../http/hono-env";
import { authenticateScimCaller, type ScimCaller } from "../../services/scim/auth";
import { scimProblemResponse } from "./respond";

// Keyed by the request object: gone with it, never shared between requests.
const callers = new WeakMap<Request, ScimCaller>();

export const scimAuthenticate: MiddlewareHandler<AppEnv> = async (c, next) => {
  const result = await authenticateScimCaller(c.get("deps"), c.req.param("connectionId") ?? "", c.req.header("authorization"));
  if (!result.ok) return scimProblemResponse(c, result);
  callers.set(c.req.raw, result.caller);
  await next();
};

export function scimCallerOf(c: Context<AppEnv>): ScimCaller {
  const caller = callers.get(c.req.raw);
  if (!caller) throw new Error("A SCIM route ran without scimAuthenticate.");
  return caller;
}
