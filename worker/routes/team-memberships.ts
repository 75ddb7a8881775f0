/** /team-memberships: add (back end), remove (back end, or a client with $remove_members) and leave. */

import { successSchema } from "@doorman/shared/wire";
import { teamMembershipSchema } from "@doorman/shared/wire-teams";
import { z } from "zod";
import { unwrap } from "../http/problems";
import { meOr, teamActor } from "../http/request";
import { addRoute, defineRoute, routeGroup } from "../http/route";
import { userIdOrMe } from "../http/validate";
import { addMember, removeMember } from "../services/team-memberships";

const membershipParams = z.strictObject({ teamId: z.uuid(), userId: userIdOrMe });

const add = defineRoute({
  method: "post",
  path: "/{teamId}/{userId}",
  summary: "Add a user to a team",
  access: ["server", "admin"],
  params: membershipParams,
  body: z.strictObject({}),
  response: { status: 201, description: "The membership", schema: teamMembershipSchema },
  errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "USER_NOT_FOUND", "TEAM_NOT_FOUND", "TEAM_MEMBERSHIP_ALREADY_EXISTS"],
});

const remove = defineRoute({
  method: "delete",
  path: "/{teamId}/{userId}",
  summary: "Remove a member from a team, or leave it (clients: others only with $remove_members)",
  access: ["client", "server", "admin"],
  params: membershipParams,
  response: successSchema,
  errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "TEAM_MEMBERSHIP_NOT_FOUND", "TEAM_PERMISSION_REQUIRED", "TEAM_NOT_FOUND"],
});

export const teamMembershipsRoutes = routeGroup();
addRoute(teamMembershipsRoutes, add, async (c, { auth, params }) => {
  const userId = meOr(auth, params.userId);
  unwrap(await addMember(c.get("deps"), auth.project, params.teamId, userId));
  return c.json({ team_id: params.teamId, user_id: userId }, 201);
});
addRoute(teamMembershipsRoutes, remove, async (c, { auth, params }) => {
  const userId = meOr(auth, params.userId);
  unwrap(await removeMember(c.get("deps"), auth.project.id, teamActor(auth), params.teamId, userId));
  return c.json({ success: true });
});
