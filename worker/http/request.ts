/**
 * Reading the caller out of a request, in one place: the validation hook that turns a bad
 * param or query into the wire's SCHEMA_ERROR, the signed-in user, and "me" as a user id.
 */

import { KnownError } from "@doorman/shared/known-errors";
import type { Hook } from "@hono/zod-openapi";
import type { UserRecord } from "../db/queries/users";
import { StatusError } from "../lib/errors";
import { databaseUnavailable } from "../services/outage/deadline";
import type { RequestAuth } from "../services/request-auth";
import type { TeamActor } from "../services/teams";
import type { AppEnv } from "./hono-env";
import { schemaError } from "./validate";

export type AuthWithUser = RequestAuth & { user: UserRecord };

/** The default hook: a params failure answers SCHEMA_ERROR (wire §3) through schemaError, as query and body failures do. */
export const schemaErrorHook: Hook<unknown, AppEnv, string, unknown> = (result, c) => {
  if (result.success) return;
  throw schemaError(c, result.target === "param" ? "params" : result.target, result.error.issues);
};

/** The signed-in user, or CANNOT_GET_OWN_USER_WITHOUT_USER. */
export function requireUser(auth: RequestAuth): AuthWithUser {
  // A request authenticated while D1 was away has a token but no user read: the known 503 (services/outage/).
  if (!auth.user) throw auth.degraded ? databaseUnavailable() : new KnownError("CANNOT_GET_OWN_USER_WITHOUT_USER");
  return auth as AuthWithUser;
}

/** "me" → the signed-in user's id; any other id as given (whether the caller may act on it is the service's call). */
export function meOr(auth: RequestAuth, value: string): string {
  return value === "me" ? requireUser(auth).user.user.id : value;
}

/**
 * A user id for a route where clients act on their own account only: "me" is the signed-in
 * user; a client without a session gets CANNOT_GET_OWN_USER_WITHOUT_USER, and one naming anyone
 * else a plain 403 (the wire's "Client can only … their own user" answer).
 */
export function ownUserId(auth: RequestAuth, value: string): string {
  if (auth.type !== "client") return meOr(auth, value);
  const id = requireUser(auth).user.user.id;
  // An end user's key may only ever reach that user's own records.
  if (value !== "me" && value !== id) throw new StatusError(403, "Client can only access the records of their own user.");
  return id;
}

/** A client acts as its signed-in user (and needs one); server and admin keys act as the back end. */
export function teamActor(auth: RequestAuth): TeamActor {
  if (auth.type !== "client") return { kind: "backend" };
  return { kind: "client", userId: requireUser(auth).user.user.id };
}
