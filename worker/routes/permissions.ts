/**
 * Permission definitions (admin) and grants (team and project scope): /team-permissions,
 * /project-permissions, /team-permission-definitions, /project-permission-definitions.
 */

import { listSchema, successSchema } from "@doorman/shared/wire";
import { permissionDefinitionSchema, projectPermissionSchema, teamPermissionSchema } from "@doorman/shared/wire-teams";
import { z } from "zod";
import type { PermissionScope } from "../db/queries/permissions";
import { unwrap } from "../http/problems";
import { ownUserId, requireUser } from "../http/request";
import { addRoute, defineRoute, routeGroup } from "../http/route";
import { queryBool, userIdOrMe } from "../http/validate";
import { StatusError } from "../lib/errors";
import {
  createPermissionDefinition,
  deletePermissionDefinition,
  listPermissionDefinitions,
  updatePermissionDefinition,
} from "../services/permission-definitions";
import {
  grantProjectPermission,
  grantTeamPermission,
  listProjectPermissions,
  listTeamPermissions,
  revokeProjectPermission,
  revokeTeamPermission,
} from "../services/permissions";
import type { RequestAuth } from "../services/request-auth";

/** A custom permission id: `$` is reserved for the built-in system permissions. */
const customPermissionId = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[a-zA-Z0-9_:-]+$/, 'Only letters, numbers, "_", ":" and "-" are allowed.');
/** Any permission id, system ones included (grants of `$update_team` etc.). */
const permissionId = z
  .string()
  .min(1)
  .max(256)
  .regex(/^\$?[a-zA-Z0-9_:-]+$/, 'Only letters, numbers, "_", ":", "-" and a leading "$" are allowed.');
const description = z.string().max(1024);
const containedIds = z.array(permissionId).max(256);

// Strict params, so a bad id is a SCHEMA_ERROR rather than a lookup.
const teamGrantParams = z.strictObject({ teamId: z.uuid(), userId: userIdOrMe, permissionId });
const projectGrantParams = z.strictObject({ userId: userIdOrMe, permissionId });
const listFilter = { user_id: userIdOrMe.optional(), permission_id: permissionId.optional(), recursive: queryBool.optional() };

/**
 * The user whose permissions are listed. A client may only list its own (as the reference: a
 * 403 naming the rule), so one user can never read another's permissions.
 */
function listedUserId(auth: RequestAuth, userId: string | undefined): string | undefined {
  if (auth.type === "client") {
    const self = requireUser(auth).user.user.id;
    if (userId !== "me" && userId !== self)
      throw new StatusError(
        403,
        'Client can only list permissions for their own user. user_id must be either "me" or the ID of the current user',
      );
    return self;
  }
  return userId === undefined ? undefined : ownUserId(auth, userId);
}

// ---- team permissions ---------------------------------------------------------------------------

const listTeam = defineRoute({
  method: "get",
  path: "/",
  summary: "List team permissions (clients: their own user's only, user_id=me); recursive by default",
  access: ["client", "server", "admin"],
  query: z.strictObject({ team_id: z.uuid().optional(), ...listFilter }),
  response: listSchema(teamPermissionSchema),
  errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER"],
});

const grantTeam = defineRoute({
  method: "post",
  path: "/{teamId}/{userId}/{permissionId}",
  summary: "Grant a team permission to a member",
  access: ["server", "admin"],
  params: teamGrantParams,
  body: z.strictObject({}),
  response: { status: 201, description: "The grant", schema: teamPermissionSchema },
  errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "TEAM_MEMBERSHIP_NOT_FOUND", "PERMISSION_NOT_FOUND", "WRONG_PERMISSION_SCOPE"],
});

const revokeTeam = defineRoute({
  method: "delete",
  path: "/{teamId}/{userId}/{permissionId}",
  summary: "Revoke a member's direct team permission",
  access: ["server", "admin"],
  params: teamGrantParams,
  response: successSchema,
  errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "TEAM_MEMBERSHIP_NOT_FOUND", "TEAM_PERMISSION_NOT_FOUND"],
});

export const teamPermissionsRoutes = routeGroup();
addRoute(teamPermissionsRoutes, listTeam, async (c, { auth, query: q }) => {
  const items = await listTeamPermissions(c.get("deps"), auth.project.id, {
    teamId: q.team_id,
    userId: listedUserId(auth, q.user_id),
    permissionId: q.permission_id,
    // SPEC §9: recursive listing is the default (the SDK always sends the parameter anyway).
    recursive: q.recursive ?? true,
  });
  return c.json({ items, is_paginated: false });
});
addRoute(teamPermissionsRoutes, grantTeam, async (c, { auth, params: p }) => {
  const userId = ownUserId(auth, p.userId);
  unwrap(await grantTeamPermission(c.get("deps"), auth.project.id, p.teamId, userId, p.permissionId));
  return c.json({ id: p.permissionId, user_id: userId, team_id: p.teamId }, 201);
});
addRoute(teamPermissionsRoutes, revokeTeam, async (c, { auth, params: p }) => {
  unwrap(await revokeTeamPermission(c.get("deps"), auth.project.id, p.teamId, ownUserId(auth, p.userId), p.permissionId));
  return c.json({ success: true });
});

// ---- project permissions ------------------------------------------------------------------------

const listProject = defineRoute({
  method: "get",
  path: "/",
  summary: "List project permissions (clients: their own user's only, user_id=me); recursive by default",
  access: ["client", "server", "admin"],
  query: z.strictObject(listFilter),
  response: listSchema(projectPermissionSchema),
  errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER"],
});

const grantProject = defineRoute({
  method: "post",
  path: "/{userId}/{permissionId}",
  summary: "Grant a project permission to a user",
  access: ["server", "admin"],
  params: projectGrantParams,
  body: z.strictObject({}),
  response: { status: 201, description: "The grant", schema: projectPermissionSchema },
  errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "USER_NOT_FOUND", "PERMISSION_NOT_FOUND", "WRONG_PERMISSION_SCOPE"],
});

const revokeProject = defineRoute({
  method: "delete",
  path: "/{userId}/{permissionId}",
  summary: "Revoke a user's direct project permission",
  access: ["server", "admin"],
  params: projectGrantParams,
  response: successSchema,
  errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "USER_NOT_FOUND", "PERMISSION_NOT_FOUND"],
});

export const projectPermissionsRoutes = routeGroup();
addRoute(projectPermissionsRoutes, listProject, async (c, { auth, query: q }) => {
  const items = await listProjectPermissions(c.get("deps"), auth.project.id, {
    userId: listedUserId(auth, q.user_id),
    permissionId: q.permission_id,
    recursive: q.recursive ?? true,
  });
  return c.json({ items, is_paginated: false });
});
addRoute(projectPermissionsRoutes, grantProject, async (c, { auth, params: p }) => {
  const userId = ownUserId(auth, p.userId);
  unwrap(await grantProjectPermission(c.get("deps"), auth.project.id, userId, p.permissionId));
  return c.json({ id: p.permissionId, user_id: userId }, 201);
});
addRoute(projectPermissionsRoutes, revokeProject, async (c, { auth, params: p }) => {
  unwrap(await revokeProjectPermission(c.get("deps"), auth.project.id, ownUserId(auth, p.userId), p.permissionId));
  return c.json({ success: true });
});

// ---- definitions (admin) ------------------------------------------------------------------------

const idParams = z.strictObject({ permissionId });
const createBody = z.strictObject({
  id: customPermissionId,
  description: description.optional(),
  contained_permission_ids: containedIds.optional(),
});
const updateBody = z.strictObject({
  id: customPermissionId.optional(),
  description: description.optional(),
  contained_permission_ids: containedIds.optional(),
});
const CONTAINMENT_ERRORS = ["PERMISSION_ID_ALREADY_EXISTS", "CONTAINED_PERMISSION_NOT_FOUND"] as const;
const LOOKUP_ERRORS = ["PERMISSION_NOT_FOUND", "WRONG_PERMISSION_SCOPE"] as const;

/** Admin CRUD on one scope's definitions. */
function definitionRoutes(scope: PermissionScope) {
  const list = defineRoute({
    method: "get",
    path: "/",
    summary: `List the ${scope} permission definitions${scope === "team" ? " (the built-in system permissions included)" : ""}`,
    access: ["admin"],
    response: listSchema(permissionDefinitionSchema),
  });
  const create = defineRoute({
    method: "post",
    path: "/",
    summary: `Create a ${scope} permission definition`,
    access: ["admin"],
    body: createBody,
    response: { status: 201, description: "The new definition", schema: permissionDefinitionSchema },
    errors: CONTAINMENT_ERRORS,
  });
  const update = defineRoute({
    method: "patch",
    path: "/{permissionId}",
    summary: `Update (or rename) a ${scope} permission definition`,
    access: ["admin"],
    params: idParams,
    body: updateBody,
    response: permissionDefinitionSchema,
    errors: [...LOOKUP_ERRORS, ...CONTAINMENT_ERRORS],
  });
  const remove = defineRoute({
    method: "delete",
    path: "/{permissionId}",
    summary: `Delete a ${scope} permission definition, its grants and its place in other definitions`,
    access: ["admin"],
    params: idParams,
    response: successSchema,
    errors: LOOKUP_ERRORS,
  });

  const group = routeGroup();
  addRoute(group, list, async (c, { auth }) =>
    c.json({ items: await listPermissionDefinitions(c.get("deps"), auth.project.id, scope), is_paginated: false }),
  );
  addRoute(group, create, async (c, { auth, body }) => {
    const input = { id: body.id, description: body.description, containedPermissionIds: body.contained_permission_ids };
    const result = unwrap(await createPermissionDefinition(c.get("deps"), auth.project.id, scope, input));
    return c.json(result.definition, 201);
  });
  addRoute(group, update, async (c, { auth, params, body }) => {
    const patch = { id: body.id, description: body.description, containedPermissionIds: body.contained_permission_ids };
    const result = unwrap(await updatePermissionDefinition(c.get("deps"), auth.project.id, scope, params.permissionId, patch));
    return c.json(result.definition);
  });
  addRoute(group, remove, async (c, { auth, params }) => {
    unwrap(await deletePermissionDefinition(c.get("deps"), auth.project.id, scope, params.permissionId));
    return c.json({ success: true });
  });
  return group;
}

export const teamPermissionDefinitionsRoutes = definitionRoutes("team");
export const projectPermissionDefinitionsRoutes = definitionRoutes("project");
