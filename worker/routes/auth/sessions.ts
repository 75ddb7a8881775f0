/** /auth/sessions: create (server), list, revoke, sign out, and refresh the current session. */
import { Hono } from "hono";
import { z } from "zod";
import { MAX_SESSION_EXPIRY_MS } from "../../../sdk/src/shared/constants";
import { KnownError } from "../../../sdk/src/shared/known-errors";
import { findSession, listSessionsOfUser } from "../../db/queries/sessions";
import { StatusError } from "../../lib/errors";
import type { AppEnv } from "../../lib/hono-env";
import { ipInfoOf } from "../../lib/ip-info";
import { parseBody, parseQuery, userIdOrMe } from "../../lib/validate";
import { stackHeader } from "../../middleware/headers";
import { requireAccess, requireUser, resolveUserId } from "../../middleware/require";
import { refreshThroughSession, revokeThroughSession } from "../../services/session-gateway";
import { createSessionForUser } from "../../services/sessions";
import { sessionView } from "../../views/sessions";

export const sessionsRoutes = new Hono<AppEnv>()
  .post("/", async (c) => {
    const auth = requireAccess(c, "server", "admin");
    const body = await parseBody(
      c,
      z.strictObject({
        user_id: z.uuid(),
        expires_in_millis: z.number().int().min(1).max(MAX_SESSION_EXPIRY_MS).optional(),
        is_impersonation: z.boolean().optional(),
      }),
    );
    const result = await createSessionForUser(c.get("deps"), auth.project, body.user_id, {
      expiresInMs: body.expires_in_millis,
      isImpersonation: body.is_impersonation ?? false,
    });
    if (!result.ok) throw new KnownError("USER_ID_DOES_NOT_EXIST", { user_id: body.user_id });
    return c.json({ access_token: result.accessToken, refresh_token: result.refreshToken });
  })
  .get("/", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const q = parseQuery(c, z.strictObject({ user_id: userIdOrMe }));
    const userId = resolveUserId(auth, q.user_id);
    const deps = c.get("deps");
    const rows = await listSessionsOfUser(deps.db, auth.project.id, userId, deps.now());
    return c.json({ items: rows.map((r) => sessionView(r, auth.sessionId)), is_paginated: false });
  })
  .delete("/current", async (c) => {
    const auth = requireUser(requireAccess(c, "client", "server", "admin"));
    await parseBody(c, z.strictObject({}));
    if (!auth.sessionId) throw new KnownError("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    const revoked = await revokeThroughSession(c.get("deps"), auth.project.id, auth.sessionId);
    if (!revoked) throw new KnownError("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    return c.json({ success: true });
  })
  .post("/current/refresh", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    await parseBody(c, z.strictObject({}));
    const refreshToken = stackHeader(c, "refresh-token");
    if (!refreshToken) throw new KnownError("SCHEMA_ERROR", { message: "The x-stack-refresh-token header is required." });
    const result = await refreshThroughSession(c.get("deps"), auth.project, refreshToken, ipInfoOf(c));
    if (!result.ok) throw new KnownError("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    return c.json(
      result.refreshToken ? { access_token: result.accessToken, refresh_token: result.refreshToken } : { access_token: result.accessToken },
    );
  })
  .delete("/:sessionId", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const q = parseQuery(c, z.strictObject({ user_id: userIdOrMe.optional() }));
    const sessionId = c.req.param("sessionId");
    const deps = c.get("deps");
    const session = await findSession(deps.db, auth.project.id, sessionId);
    // Clients may only end their own sessions; another user's session looks like a missing one.
    const ownerId = auth.type === "client" ? requireUser(auth).user.user.id : q.user_id ? resolveUserId(auth, q.user_id) : session?.userId;
    if (!session || session.userId !== ownerId) throw new StatusError(404, "Session not found.");
    if (auth.type === "client" && session.id === auth.sessionId) throw new KnownError("CANNOT_DELETE_CURRENT_SESSION");
    await revokeThroughSession(deps, auth.project.id, session.id);
    return c.json({ success: true });
  });
