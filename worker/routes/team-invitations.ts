/** /team-invitations: invite by email, list, revoke, and accept (by code or by id). */

import { listSchema, successSchema, teamInvitationSchema } from "@doorman/shared/wire";
import {
  emptyObjectSchema,
  invitationCodeCheckSchema,
  invitationCodeDetailsSchema,
  invitationSentSchema,
} from "@doorman/shared/wire-teams";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../http/hono-env";
import { enforceRateLimits } from "../http/limit";
import { unwrap } from "../http/problems";
import { ownUserId, requireUser, teamActor } from "../http/request";
import { addRoute, defineRoute, routeGroup } from "../http/route";
import { userIdOrMe } from "../http/validate";
import { StatusError } from "../lib/errors";
import type { RequestAuth } from "../services/request-auth";
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
const TOO_MANY = "Too many requests: plain text, with a Retry-After header in seconds.";
const TEAM_ACCESS_ERRORS = [
  "CANNOT_GET_OWN_USER_WITHOUT_USER",
  "TEAM_MEMBERSHIP_NOT_FOUND",
  "TEAM_PERMISSION_REQUIRED",
  "TEAM_NOT_FOUND",
] as const;
const CODE_ERRORS = [
  "VERIFICATION_CODE_NOT_FOUND",
  "VERIFICATION_CODE_EXPIRED",
  "VERIFICATION_CODE_ALREADY_USED",
  "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
  "TEAM_NOT_FOUND",
] as const;
const REDEEM_ERRORS = [...CODE_ERRORS, "CANNOT_GET_OWN_USER_WITHOUT_USER", "TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED"] as const;

/**
 * `details` and `accept` need a signed-in user, checked after the body and before the per-IP
 * limit (so the guard's `user: true` and the declared `rateLimit` would reorder the wire).
 */
async function redeemAsUser(c: Context<AppEnv>, auth: RequestAuth, code: string, mode: Exclude<CodeMode, "check">) {
  const { user } = requireUser(auth);
  await enforceRateLimits(c, { ip: "CODE_VERIFY_PER_IP" });
  return unwrap(await redeemInvitationCode(c.get("deps"), auth.project, user, code, mode));
}

const sendCode = defineRoute({
  method: "post",
  path: "/send-code",
  summary: "Email an invitation to a team (clients: with $invite_members; rate limited per IP and email)",
  access: ["client", "server", "admin"],
  body: z.strictObject({ email: z.email().max(320), team_id: z.uuid(), callback_url: z.url().max(4096) }),
  response: [invitationSentSchema, { status: 429, description: `Client callers only. ${TOO_MANY}` }],
  errors: [...TEAM_ACCESS_ERRORS, "REDIRECT_URL_NOT_WHITELISTED"],
});

const accept = defineRoute({
  method: "post",
  path: "/accept",
  summary: "Join the team of an invitation code as the signed-in user",
  access: ["client", "server", "admin"],
  body: codeBody,
  response: [emptyObjectSchema, { status: 429, description: TOO_MANY }],
  errors: REDEEM_ERRORS,
});

const checkCode = defineRoute({
  method: "post",
  path: "/accept/check-code",
  summary: "Whether an invitation code is valid (without using it)",
  access: ["client", "server", "admin"],
  body: codeBody,
  response: invitationCodeCheckSchema,
  errors: CODE_ERRORS,
  rateLimit: { ip: "CODE_VERIFY_PER_IP" },
});

const details = defineRoute({
  method: "post",
  path: "/accept/details",
  summary: "The team an invitation code invites the signed-in user to (without using it)",
  access: ["client", "server", "admin"],
  body: codeBody,
  response: [invitationCodeDetailsSchema, { status: 429, description: TOO_MANY }],
  errors: REDEEM_ERRORS,
});

const list = defineRoute({
  method: "get",
  path: "/",
  summary: "Open invitations of a team (clients: with $read_members and $invite_members) or to a user; exactly one of team_id, user_id",
  access: ["client", "server", "admin"],
  query: z.strictObject({ team_id: z.uuid().optional(), user_id: userIdOrMe.optional() }),
  response: listSchema(teamInvitationSchema),
  errors: [...TEAM_ACCESS_ERRORS, "INSUFFICIENT_ACCESS_TYPE"],
});

const revoke = defineRoute({
  method: "delete",
  path: "/{id}",
  summary: "Revoke an invitation of a team (clients: with $remove_members)",
  access: ["client", "server", "admin"],
  params: z.strictObject({ id: z.uuid() }),
  query: z.strictObject({ team_id: z.uuid() }),
  response: successSchema,
  errors: [...TEAM_ACCESS_ERRORS, "VERIFICATION_CODE_NOT_FOUND"],
});

const acceptById = defineRoute({
  method: "post",
  path: "/{id}/accept",
  summary: "Accept an invitation by id for a user with a verified email it was sent to (clients: themselves)",
  access: ["client", "server", "admin"],
  params: z.strictObject({ id: z.uuid() }),
  query: z.strictObject({ user_id: userIdOrMe }),
  body: z.strictObject({}),
  response: emptyObjectSchema,
  errors: [
    "CANNOT_GET_OWN_USER_WITHOUT_USER",
    "INSUFFICIENT_ACCESS_TYPE",
    "USER_NOT_FOUND",
    "TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED",
    "VERIFICATION_CODE_NOT_FOUND",
    "TEAM_NOT_FOUND",
  ],
});

export const teamInvitationsRoutes = routeGroup();
addRoute(teamInvitationsRoutes, sendCode, async (c, { auth, body }) => {
  const actor = teamActor(auth);
  // End users could spam any address through a team they belong to; back ends are trusted callers.
  if (actor.kind === "client") await enforceRateLimits(c, { ip: "OTP_SEND_PER_IP", email: "OTP_SEND_PER_EMAIL" }, body.email.toLowerCase());
  const input = { teamId: body.team_id, email: body.email, callbackUrl: body.callback_url };
  const { id } = unwrap(await sendInvitation(c.get("deps"), auth.project, actor, input));
  return c.json({ success: true, id });
});
addRoute(teamInvitationsRoutes, accept, async (c, { auth, body }) => {
  await redeemAsUser(c, auth, body.code, "accept");
  return c.json({});
});
addRoute(teamInvitationsRoutes, checkCode, async (c, { auth, body }) => {
  unwrap(await redeemInvitationCode(c.get("deps"), auth.project, auth.user, body.code, "check"));
  return c.json({ is_code_valid: true });
});
addRoute(teamInvitationsRoutes, details, async (c, { auth, body }) => {
  const { teamId, teamDisplayName } = await redeemAsUser(c, auth, body.code, "details");
  return c.json({ team_id: teamId, team_display_name: teamDisplayName });
});
addRoute(teamInvitationsRoutes, list, async (c, { auth, query: q }) => {
  const deps = c.get("deps");
  if (q.team_id !== undefined && q.user_id === undefined) {
    const { invitations } = unwrap(await listTeamInvitations(deps, auth.project.id, teamActor(auth), q.team_id));
    return c.json({ items: invitations.map(invitationView), is_paginated: false });
  }
  if (q.user_id !== undefined && q.team_id === undefined) {
    const rows = await listUserInvitations(deps, auth.project.id, ownUserId(auth, q.user_id));
    return c.json({ items: rows.map(invitationView), is_paginated: false });
  }
  throw new StatusError(400, "Exactly one of team_id and user_id is required.");
});
addRoute(teamInvitationsRoutes, revoke, async (c, { auth, params, query }) => {
  unwrap(await revokeInvitation(c.get("deps"), auth.project.id, teamActor(auth), query.team_id, params.id));
  return c.json({ success: true });
});
addRoute(teamInvitationsRoutes, acceptById, async (c, { auth, params, query }) => {
  const userId = ownUserId(auth, query.user_id);
  // A back end vouches for the user; an end user must not be restricted (as the reference).
  unwrap(await acceptInvitationById(c.get("deps"), auth.project, userId, params.id, auth.type === "client"));
  return c.json({});
});
