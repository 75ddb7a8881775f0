/** /team-invitations: invite by email, list, revoke, and accept (by code or by id). */

import type { Context } from "hono";
import { Hono } from "hono";
import { z } from "zod";
import { StatusError } from "../lib/errors";
import type { AppEnv } from "../lib/hono-env";
import { unwrap } from "../lib/problems";
import { teamActor, uuidParam } from "../lib/team-request";
import { parseBody, parseQuery, userIdOrMe } from "../lib/validate";
import { enforceRateLimits } from "../middleware/rate-limit";
import { requireAccess, requireUser, resolveUserId } from "../middleware/require";
import {
  acceptInvitationById,
  type CodeMode,
  listTeamInvitations,
  listUserInvitations,
  redeemInvitationCode,
  revokeInvitation,
  sendInvitation,
} from "../services/team-invitations";
import { invitationView } from "../views/team-members";

const codeBody = z.strictObject({ code: z.string().length(45) });

/** The three code endpoints share one service; `details` and `accept` need a signed-in user. */
async function codeEndpoint(c: Context<AppEnv>, mode: CodeMode) {
  const auth = requireAccess(c, "client", "server", "admin");
  const body = await parseBody(c, codeBody);
  const user = mode === "check" ? auth.user : requireUser(auth).user;
  await enforceRateLimits(c, { ip: "CODE_VERIFY_PER_IP" });
  return unwrap(await redeemInvitationCode(c.get("deps"), auth.project, user, body.code, mode));
}

export const teamInvitationsRoutes = new Hono<AppEnv>()
  .post("/send-code", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const body = await parseBody(c, z.strictObject({ email: z.email().max(320), team_id: z.uuid(), callback_url: z.url().max(4096) }));
    const actor = teamActor(auth);
    // End users could spam any address through a team they belong to; back ends are trusted callers.
    if (actor.kind === "client")
      await enforceRateLimits(c, { ip: "OTP_SEND_PER_IP", email: "OTP_SEND_PER_EMAIL" }, body.email.toLowerCase());
    const input = { teamId: body.team_id, email: body.email, callbackUrl: body.callback_url };
    const { id } = unwrap(await sendInvitation(c.get("deps"), auth.project, actor, input));
    return c.json({ success: true, id });
  })
  .post("/accept", async (c) => {
    await codeEndpoint(c, "accept");
    return c.json({});
  })
  .post("/accept/check-code", async (c) => {
    await codeEndpoint(c, "check");
    return c.json({ is_code_valid: true });
  })
  .post("/accept/details", async (c) => {
    const { teamId, teamDisplayName } = await codeEndpoint(c, "details");
    return c.json({ team_id: teamId, team_display_name: teamDisplayName });
  })
  .get("/", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const q = parseQuery(c, z.strictObject({ team_id: z.uuid().optional(), user_id: userIdOrMe.optional() }));
    const deps = c.get("deps");
    if (q.team_id !== undefined && q.user_id === undefined) {
      const { invitations } = unwrap(await listTeamInvitations(deps, auth.project.id, teamActor(auth), q.team_id));
      return c.json({ items: invitations.map(invitationView), is_paginated: false });
    }
    if (q.user_id !== undefined && q.team_id === undefined) {
      const rows = await listUserInvitations(deps, auth.project.id, resolveUserId(auth, q.user_id));
      return c.json({ items: rows.map(invitationView), is_paginated: false });
    }
    throw new StatusError(400, "Exactly one of team_id and user_id is required.");
  })
  .delete("/:id", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const id = uuidParam(c, "id");
    const q = parseQuery(c, z.strictObject({ team_id: z.uuid() }));
    unwrap(await revokeInvitation(c.get("deps"), auth.project.id, teamActor(auth), q.team_id, id));
    return c.json({ success: true });
  })
  .post("/:id/accept", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const id = uuidParam(c, "id");
    const q = parseQuery(c, z.strictObject({ user_id: userIdOrMe }));
    await parseBody(c, z.strictObject({}));
    const userId = resolveUserId(auth, q.user_id);
    // A back end vouches for the user; an end user must not be restricted (as the reference).
    unwrap(await acceptInvitationById(c.get("deps"), auth.project, userId, id, auth.type === "client"));
    return c.json({});
  });
