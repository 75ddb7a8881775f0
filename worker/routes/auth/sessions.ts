/** /auth/sessions: create (server), list, revoke, sign out, and refresh the current session. */

import { MAX_SESSION_EXPIRY_MS } from "@doorman/shared/constants";
import { KnownError } from "@doorman/shared/known-errors";
import { listSchema, sessionSchema, successSchema, tokensSchema } from "@doorman/shared/wire";
import { refreshedTokensSchema } from "@doorman/shared/wire-auth";
import { z } from "zod";
import { findSession, listSessionsOfUser } from "../../db/queries/sessions";
import { unwrap } from "../../http/problems";
import { ownUserId, requireUser } from "../../http/request";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { userIdOrMe } from "../../http/validate";
import { StatusError } from "../../lib/errors";
import { ipInfoOf } from "../../lib/ip-info";
import { stackHeader } from "../../middleware/headers";
import { refreshThroughSession, revokeThroughSession } from "../../services/auth/session-gateway";
import { createSessionForUser, revokeSessionsOfUser } from "../../services/auth/sessions";
import { sessionView } from "../../views/sessions";

const access = ["client", "server", "admin"] as const;
/** What naming a user ("me", or an id clients may only use for themselves) can answer. */
const USER_ID_ERRORS = ["CANNOT_GET_OWN_USER_WITHOUT_USER", "INSUFFICIENT_ACCESS_TYPE"] as const;

const create = defineRoute({
  method: "post",
  path: "/",
  summary: "Create a session for a user",
  access: ["server", "admin"],
  body: z.strictObject({
    user_id: z.uuid(),
    expires_in_millis: z.number().int().min(1).max(MAX_SESSION_EXPIRY_MS).optional(),
    is_impersonation: z.boolean().optional(),
  }),
  response: tokensSchema,
  errors: ["USER_ID_DOES_NOT_EXIST"],
});

const list = defineRoute({
  method: "get",
  path: "/",
  summary: "A user's active sessions",
  access,
  query: z.strictObject({ user_id: userIdOrMe }),
  response: listSchema(sessionSchema),
  errors: USER_ID_ERRORS,
});

const signOut = defineRoute({
  method: "delete",
  path: "/current",
  summary: "Sign out: end the current session",
  access,
  user: true,
  // A sign-out while D1 is away holds: the session's object refuses it at once (services/outage/).
  answersDegraded: true,
  body: z.strictObject({}),
  response: successSchema,
  errors: ["REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", "DATABASE_TEMPORARILY_UNAVAILABLE"],
});

const refresh = defineRoute({
  method: "post",
  path: "/current/refresh",
  summary: "A new access token for the refresh token in x-stack-refresh-token",
  access,
  body: z.strictObject({}),
  response: refreshedTokensSchema,
  // During a D1 outage the session's object answers; only a session it does not know gets the 503.
  errors: ["REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", "DATABASE_TEMPORARILY_UNAVAILABLE"],
});

const revoke = defineRoute({
  method: "delete",
  path: "/{sessionId}",
  summary: "End a session (clients: one of their own other than the current one)",
  access,
  params: z.strictObject({ sessionId: z.string() }),
  query: z.strictObject({ user_id: userIdOrMe.optional() }),
  response: successSchema,
  errors: [...USER_ID_ERRORS, "CANNOT_DELETE_CURRENT_SESSION"],
});

const revokeAll = defineRoute({
  method: "delete",
  path: "/",
  summary: "Sign out everywhere: end every session of a user but the current one (clients: only their own)",
  access,
  query: z.strictObject({ user_id: userIdOrMe }),
  response: successSchema,
  errors: [...USER_ID_ERRORS, "USER_NOT_FOUND"],
});

export const sessionsRoutes = routeGroup();
addRoute(sessionsRoutes, create, async (c, { auth, body }) => {
  const result = await createSessionForUser(c.get("deps"), auth.project, body.user_id, {
    expiresInMs: body.expires_in_millis,
    // A session the back end creates is a server sign-in; an impersonation is an admin's look at the account.
    origin: body.is_impersonation ? { impersonation: true } : { signIn: { method: "server" } },
  });
  if (!result.ok) throw new KnownError("USER_ID_DOES_NOT_EXIST", { user_id: body.user_id });
  return c.json({ access_token: result.accessToken, refresh_token: result.refreshToken });
});
addRoute(sessionsRoutes, list, async (c, { auth, query }) => {
  const userId = ownUserId(auth, query.user_id);
  const deps = c.get("deps");
  const rows = await listSessionsOfUser(deps.db, auth.project.id, userId, deps.now());
  return c.json({ items: rows.map((r) => sessionView(r, auth.sessionId)), is_paginated: false });
});
addRoute(sessionsRoutes, revokeAll, async (c, { auth, query }) => {
  // Clients name only themselves (ownUserId); the session this request comes from is kept, so
  // "sign out of all other devices" leaves this one signed in. Server and admin end them all.
  const userId = ownUserId(auth, query.user_id);
  unwrap(await revokeSessionsOfUser(c.get("deps"), auth.project.id, userId, auth.sessionId));
  return c.json({ success: true });
});
addRoute(sessionsRoutes, signOut, async (c, { auth }) => {
  if (!auth.sessionId) throw new KnownError("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  const userId = auth.degraded?.sub ?? requireUser(auth).user.user.id;
  const revoked = await revokeThroughSession(c.get("deps"), auth.project.id, { id: auth.sessionId, userId }, "sign_out");
  if (!revoked) throw new KnownError("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  return c.json({ success: true });
});
addRoute(sessionsRoutes, refresh, async (c, { auth }) => {
  // Read from the header (x-stack- or x-hexclave-), not the body.
  const refreshToken = stackHeader(c, "refresh-token");
  if (!refreshToken) throw new KnownError("SCHEMA_ERROR", { message: "The x-stack-refresh-token header is required." });
  const result = await refreshThroughSession(c.get("deps"), auth.project, refreshToken, ipInfoOf(c));
  if (!result.ok) throw new KnownError("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  return c.json(
    result.refreshToken ? { access_token: result.accessToken, refresh_token: result.refreshToken } : { access_token: result.accessToken },
  );
});
addRoute(sessionsRoutes, revoke, async (c, { auth, params, query }) => {
  const deps = c.get("deps");
  const session = await findSession(deps.db, auth.project.id, params.sessionId);
  // Clients may only end their own sessions; another user's session looks like a missing one.
  const ownerId =
    auth.type === "client" ? requireUser(auth).user.user.id : query.user_id ? ownUserId(auth, query.user_id) : session?.userId;
  if (!session || session.userId !== ownerId) throw new StatusError(404, "Session not found.");
  if (auth.type === "client" && session.id === auth.sessionId) throw new KnownError("CANNOT_DELETE_CURRENT_SESSION");
  await revokeThroughSession(deps, auth.project.id, session, "session.revoked");
  return c.json({ success: true });
});
