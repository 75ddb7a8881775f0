/** The access guard of a declared route: the access levels it allows, and a signed-in user where it needs one. */
import type { MiddlewareHandler } from "hono";
import { KnownError } from "../../sdk/src/shared/known-errors";
import type { AppEnv } from "../lib/hono-env";
import type { AccessType, RequestAuth } from "../services/request-auth";
import { requireUser } from "./request";
import type { RouteSpec } from "./route-spec";

export function requireAccess(auth: RequestAuth | null, allowed: readonly AccessType[]): RequestAuth {
  if (!auth) throw new KnownError("ACCESS_TYPE_REQUIRED");
  if (!allowed.includes(auth.type))
    throw new KnownError("INSUFFICIENT_ACCESS_TYPE", { actual_access_type: auth.type, allowed_access_types: [...allowed] });
  return auth;
}

/** Runs before validation, as the wire orders it: who may call comes before what they sent. */
export function guardFor(spec: Pick<RouteSpec, "access" | "user">): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (spec.access !== "public") {
      const auth = requireAccess(c.get("auth"), spec.access);
      if (spec.user) requireUser(auth);
    }
    await next();
  };
}
