/** /teams: teams of a project (wire-protocol.md §2 "Team", §7 "Teams"). */

import { KnownError } from "@doorman/shared/known-errors";
import { listSchema, successSchema, teamClientSchema, teamServerSchema } from "@doorman/shared/wire";
import { z } from "zod";
import { unwrap } from "../http/problems";
import { meOr, requireUser, teamActor } from "../http/request";
import { addRoute, defineRoute, routeGroup } from "../http/route";
import { jsonValue, userIdOrMe } from "../http/validate";
import { StatusError } from "../lib/errors";
import type { RequestAuth } from "../services/request-auth";
import { teamClientView, teamServerView } from "../services/team-view";
import { createTeam, deleteTeam, getTeam, listTeams, updateTeam } from "../services/teams";

// Empty is allowed, as the wire; the bound keeps a row small.
const displayName = z.string().max(256);
// Clients may set an http(s) URL or an inline image; back ends any string they trust.
const clientImage = z
  .string()
  .max(500_000)
  .refine((v) => /^https?:\/\//i.test(v) || /^data:image\/[a-z+.-]+;base64,/i.test(v), "must be an http(s) URL or a base64 image data URL")
  .nullable();
const serverImage = z.string().max(500_000).nullable();

const clientFields = { display_name: displayName, profile_image_url: clientImage, client_metadata: jsonValue };
const serverFields = {
  ...clientFields,
  profile_image_url: serverImage,
  client_read_only_metadata: jsonValue,
  server_metadata: jsonValue,
};

function partial<T extends z.ZodRawShape>(shape: T) {
  return z.strictObject(shape).partial();
}

const creation = { display_name: displayName, creator_user_id: userIdOrMe.optional() };
const clientCreateSchema = partial(clientFields).extend(creation);
const serverCreateSchema = partial(serverFields).extend(creation);

const view = (auth: RequestAuth) => (auth.type === "client" ? teamClientView : teamServerView);

type TeamBody = {
  display_name?: string;
  profile_image_url?: string | null;
  client_metadata?: unknown;
  client_read_only_metadata?: unknown;
  server_metadata?: unknown;
};

function toPatch(body: TeamBody) {
  return {
    displayName: body.display_name,
    profileImageUrl: body.profile_image_url,
    clientMetadata: body.client_metadata,
    clientReadOnlyMetadata: body.client_read_only_metadata,
    serverMetadata: body.server_metadata,
  };
}

const teamView = teamClientSchema.or(teamServerSchema);
const teamIdParams = z.strictObject({ teamId: z.uuid() });
/** What checking a client's access to a team can answer (a client acts as its signed-in user). */
const TEAM_ACCESS_ERRORS = [
  "CANNOT_GET_OWN_USER_WITHOUT_USER",
  "TEAM_MEMBERSHIP_NOT_FOUND",
  "TEAM_PERMISSION_REQUIRED",
  "TEAM_NOT_FOUND",
] as const;

const list = defineRoute({
  method: "get",
  path: "/",
  summary: "List teams (clients: their own user's teams only, user_id=me)",
  access: ["client", "server", "admin"],
  query: z.strictObject({ user_id: userIdOrMe.optional() }),
  response: listSchema(teamView),
  errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER"],
});

const create = defineRoute({
  method: "post",
  path: "/",
  summary: "Create a team (clients: where the project allows it, as their own user)",
  access: ["client", "server", "admin"],
  body: serverCreateSchema,
  clientBody: clientCreateSchema,
  response: { status: 201, description: "The new team", schema: teamView },
  errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "USER_AUTHENTICATION_REQUIRED", "USER_NOT_FOUND"],
});

const getOne = defineRoute({
  method: "get",
  path: "/{teamId}",
  summary: "A team by id (clients: a team they belong to)",
  access: ["client", "server", "admin"],
  params: teamIdParams,
  response: teamView,
  errors: TEAM_ACCESS_ERRORS,
});

const updateOne = defineRoute({
  method: "patch",
  path: "/{teamId}",
  summary: "Update a team (clients: with $update_team)",
  access: ["client", "server", "admin"],
  params: teamIdParams,
  body: partial(serverFields),
  clientBody: partial(clientFields),
  response: teamView,
  errors: TEAM_ACCESS_ERRORS,
});

const deleteOne = defineRoute({
  method: "delete",
  path: "/{teamId}",
  summary: "Delete a team (clients: with $delete_team)",
  access: ["client", "server", "admin"],
  params: teamIdParams,
  response: successSchema,
  errors: TEAM_ACCESS_ERRORS,
});

export const teamsRoutes = routeGroup();
addRoute(teamsRoutes, list, async (c, { auth, query: q }) => {
  if (auth.type === "client") {
    const me = requireUser(auth).user.user.id;
    // An end user sees only their own teams.
    if (!q.user_id || meOr(auth, q.user_id) !== me)
      throw new StatusError(
        403,
        'Client can only list teams for their own user. user_id must be either "me" or the ID of the current user',
      );
  }
  const rows = await listTeams(c.get("deps"), auth.project.id, q.user_id ? meOr(auth, q.user_id) : undefined);
  return c.json({ items: rows.map(view(auth)), is_paginated: false });
});
addRoute(teamsRoutes, create, async (c, { auth, body }) => {
  // A client without a session: USER_AUTHENTICATION_REQUIRED, as the wire ("me" without one stays CANNOT_GET_OWN_USER_WITHOUT_USER).
  if (auth.type === "client" && !auth.user && body.creator_user_id !== "me") throw new KnownError("USER_AUTHENTICATION_REQUIRED");
  const creator = body.creator_user_id === undefined ? undefined : meOr(auth, body.creator_user_id);
  const input = { ...toPatch(body), displayName: body.display_name, creatorUserId: creator };
  const { team } = unwrap(await createTeam(c.get("deps"), auth.project, teamActor(auth), input));
  return c.json(view(auth)(team), 201);
});
addRoute(teamsRoutes, getOne, async (c, { auth, params }) => {
  const { team } = unwrap(await getTeam(c.get("deps"), auth.project.id, teamActor(auth), params.teamId));
  return c.json(view(auth)(team));
});
addRoute(teamsRoutes, updateOne, async (c, { auth, params, body }) => {
  const { team } = unwrap(await updateTeam(c.get("deps"), auth.project.id, teamActor(auth), params.teamId, toPatch(body)));
  return c.json(view(auth)(team));
});
addRoute(teamsRoutes, deleteOne, async (c, { auth, params }) => {
  unwrap(await deleteTeam(c.get("deps"), auth.project.id, teamActor(auth), params.teamId));
  return c.json({ success: true });
});
