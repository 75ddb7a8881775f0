/** /team-member-profiles: a member's per-team profile (display name and image). */

import { listSchema, teamMemberProfileSchema } from "@doorman/shared/wire";
import { z } from "zod";
import { unwrap } from "../http/problems";
import { meOr, teamActor } from "../http/request";
import { addRoute, defineRoute, routeGroup } from "../http/route";
import { userIdOrMe } from "../http/validate";
import { readProjectConfig } from "../services/project-config/flat";
import type { RequestAuth } from "../services/request-auth";
import { getProfile, listProfiles, updateProfile } from "../services/team-memberships";
import { memberProfileView } from "../views/team-members";

const profileBody = z.strictObject({
  display_name: z.string().max(256).nullable().optional(),
  profile_image_url: z.string().max(500_000).nullable().optional(),
});
const profileParams = z.strictObject({ teamId: z.uuid(), userId: userIdOrMe });

/** Back ends also get the member's `user`. */
function view(auth: RequestAuth, profile: Parameters<typeof memberProfileView>[0]) {
  return memberProfileView(profile, readProjectConfig(auth.project.config), auth.type !== "client");
}

const list = defineRoute({
  method: "get",
  path: "/",
  summary: "List member profiles (clients: of one of their teams, others' with $read_members)",
  access: ["client", "server", "admin"],
  query: z.strictObject({ team_id: z.uuid().optional(), user_id: userIdOrMe.optional() }),
  response: listSchema(teamMemberProfileSchema),
  errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "TEAM_MEMBERSHIP_NOT_FOUND", "TEAM_PERMISSION_REQUIRED", "TEAM_NOT_FOUND", "USER_NOT_FOUND"],
});

const getOne = defineRoute({
  method: "get",
  path: "/{teamId}/{userId}",
  summary: "A member's profile in a team (clients: others' with $read_members)",
  access: ["client", "server", "admin"],
  params: profileParams,
  response: teamMemberProfileSchema,
  errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "TEAM_MEMBERSHIP_NOT_FOUND", "TEAM_PERMISSION_REQUIRED", "TEAM_NOT_FOUND"],
});

const updateOne = defineRoute({
  method: "patch",
  path: "/{teamId}/{userId}",
  summary: "Update a member's profile in a team (clients: their own only)",
  access: ["client", "server", "admin"],
  params: profileParams,
  body: profileBody,
  response: teamMemberProfileSchema,
  errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "TEAM_MEMBERSHIP_NOT_FOUND"],
});

export const teamMemberProfilesRoutes = routeGroup();
addRoute(teamMemberProfilesRoutes, list, async (c, { auth, query: q }) => {
  const filter = { teamId: q.team_id, userId: q.user_id === undefined ? undefined : meOr(auth, q.user_id) };
  const { profiles } = unwrap(await listProfiles(c.get("deps"), auth.project.id, teamActor(auth), filter));
  return c.json({ items: profiles.map((p) => view(auth, p)), is_paginated: false });
});
addRoute(teamMemberProfilesRoutes, getOne, async (c, { auth, params }) => {
  const actor = teamActor(auth);
  const { profile } = unwrap(await getProfile(c.get("deps"), auth.project.id, actor, params.teamId, meOr(auth, params.userId)));
  return c.json(view(auth, profile));
});
addRoute(teamMemberProfilesRoutes, updateOne, async (c, { auth, params, body }) => {
  const userId = meOr(auth, params.userId);
  const patch = { displayName: body.display_name, profileImageUrl: body.profile_image_url };
  const { profile } = unwrap(await updateProfile(c.get("deps"), auth.project.id, teamActor(auth), params.teamId, userId, patch));
  return c.json(view(auth, profile));
});
