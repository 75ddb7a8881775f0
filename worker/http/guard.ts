/** The access guard of a declared route: the access levels it allows, and a signed-in user where it needs one. */

import { KnownError } from "@doorman/shared/known-errors";
import type { MiddlewareHandler } from "hono";
import type { AccessType, RequestAuth } from "../services/request-auth";
import type { AppEnv } from "./hono-env";
import { requireUser } from "./request";
import type { RouteSpec } from "./route-spec";

export function requireAccess(auth: RequestAuth | null, allowed: readonly AccessType[]): RequestAuth {
  if (!auth) throw new KnownError("ACCESS_TYPE_REQUIRED");
  if (!allowed.includes(auth.type))
    throw new KnownError("INSUFFICIENT_ACCESS_TYPE", { actual_access_type: auth.type, allowed_access_types: [...allowed] });
  return auth;
}

/** Runs before validation, as the wire orders it: who may call comes before what they sent. */
export function guardFor(spec: Pick<RouteSpec, "access" | "user" | "missingUser" | "answersDegraded">): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (spec.access !== "public") {
      const auth = requireAccess(c.get("auth"), spec.access);
      // The reference's routes that declare `auth.user` defined in their request schema answer its validation error.
      if (spec.user && !auth.user && !auth.degraded && spec.missingUser === "SCHEMA_ERROR") {
        const where = `${c.req.method} ${new URL(c.req.url).pathname}`;
        throw new KnownError("SCHEMA_ERROR", { message: `Request validation failed on ${where}:\n  - auth.user must be defined` });
      }
      if (spec.user && !(auth.degraded && spec.answersDegraded)) requireUser(auth);
    }
    await next();
  };
}
