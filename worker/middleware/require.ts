/** Route guards: the access level an endpoint needs, and the signed-in user. */
import type { Context } from "hono";
import { KnownError } from "../../sdk/src/shared/known-errors";
import type { UserRecord } from "../db/queries/users";
import type { AppEnv } from "../lib/hono-env";
import type { AccessType, RequestAuth } from "../services/request-auth";

export function requireAccess(c: Context<AppEnv>, ...allowed: AccessType[]): RequestAuth {
  const auth = c.get("auth");
  if (!auth) throw new KnownError("ACCESS_TYPE_REQUIRED");
  if (!allowed.includes(auth.type))
    throw new KnownError("INSUFFICIENT_ACCESS_TYPE", { actual_access_type: auth.type, allowed_access_types: allowed });
  return auth;
}

export type AuthWithUser = RequestAuth & { user: UserRecord };

/** The signed-in user, or CANNOT_GET_OWN_USER_WITHOUT_USER. */
export function requireUser(auth: RequestAuth): AuthWithUser {
  if (!auth.user) throw new KnownError("CANNOT_GET_OWN_USER_WITHOUT_USER");
  return auth as AuthWithUser;
}

/**
 * Resolves a user id path/query value: "me" is the signed-in user; clients may only name
 * themselves (an end user acts on their own account only).
 */
export function resolveUserId(auth: RequestAuth, value: string): string {
  if (value === "me") return requireUser(auth).user.user.id;
  if (auth.type === "client") {
    if (auth.user?.user.id === value) return value;
    throw new KnownError("INSUFFICIENT_ACCESS_TYPE", { actual_access_type: "client", allowed_access_types: ["server", "admin"] });
  }
  return value;
}
