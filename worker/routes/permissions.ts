/**
 * Permission definitions (admin) and grants (team and project scope): /team-permissions,
 * /project-permissions, /team-permission-definitions, /project-permission-definitions.
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import type { PermissionScope } from "../db/queries/permissions";
import { KnownError, StatusError } from "../lib/errors";
import type { AppEnv } from "../lib/hono-env";
import { unwrap } from "../lib/problems";
import { formatIssues, parseBody, parseQuery, queryBool, userIdOrMe } from "../lib/validate";
import { requireAccess, requireUser, resolveUserId } from "../middleware/require";
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

const teamGrantParams = z.strictObject({ teamId: z.uuid(), userId: userIdOrMe, permissionId });
const projectGrantParams = z.strictObject({ userId: userIdOrMe, permissionId });
const listFilter = { user_id: userIdOrMe.optional(), permission_id: permissionId.optional(), recursive: queryBool.optional() };

/** Route params through a strict schema, so a bad id is a SCHEMA_ERROR rather than a lookup. */
function parseParams<T extends z.ZodType>(c: Context<AppEnv>, schema: T): z.infer<T> {
  const result = schema.safeParse(c.req.param());
  if (!result.success) {
    const issues = result.error.issues.map((i) => ({ ...i, path: ["params", ...i.path] }) as z.core.$ZodIssue);
    throw new KnownError("SCHEMA_ERROR", { message: formatIssues(c.req.method, new URL(c.req.url).pathname, issues) });
  }
  return result.data;
}

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
  return userId === undefined ? undefined : resolveUserId(auth, userId);
}

export const teamPermissionsRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const q = parseQuery(c, z.strictObject({ team_id: z.uuid().optional(), ...listFilter }));
    const items = await listTeamPermissions(c.get("deps"), auth.project.id, {
      teamId: q.team_id,
      userId: listedUserId(auth, q.user_id),
      permissionId: q.permission_id,
      // SPEC §9: recursive listing is the default (the SDK always sends the parameter anyway).
      recursive: q.recursive ?? true,
    });
    return c.json({ items, is_paginated: false });
  })
  .post("/:teamId/:userId/:permissionId", async (c) => {
    const auth = requireAccess(c, "server", "admin");
    const p = parseParams(c, teamGrantParams);
    await parseBody(c, z.strictObject({}));
    const userId = resolveUserId(auth, p.userId);
    unwrap(await grantTeamPermission(c.get("deps"), auth.project.id, p.teamId, userId, p.permissionId));
    return c.json({ id: p.permissionId, user_id: userId, team_id: p.teamId }, 201);
  })
  .delete("/:teamId/:userId/:permissionId", async (c) => {
    const auth = requireAccess(c, "server", "admin");
    const p = parseParams(c, teamGrantParams);
    unwrap(await revokeTeamPermission(c.get("deps"), auth.project.id, p.teamId, resolveUserId(auth, p.userId), p.permissionId));
    return c.json({ success: true });
  });

export const projectPermissionsRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const q = parseQuery(c, z.strictObject(listFilter));
    const items = await listProjectPermissions(c.get("deps"), auth.project.id, {
      userId: listedUserId(auth, q.user_id),
      permissionId: q.permission_id,
      recursive: q.recursive ?? true,
    });
    return c.json({ items, is_paginated: false });
  })
  .post("/:userId/:permissionId", async (c) => {
    const auth = requireAccess(c, "server", "admin");
    const p = parseParams(c, projectGrantParams);
    await parseBody(c, z.strictObject({}));
    const userId = resolveUserId(auth, p.userId);
    unwrap(await grantProjectPermission(c.get("deps"), auth.project.id, userId, p.permissionId));
    return c.json({ id: p.permissionId, user_id: userId }, 201);
  })
  .delete("/:userId/:permissionId", async (c) => {
    const auth = requireAccess(c, "server", "admin");
    const p = parseParams(c, projectGrantParams);
    unwrap(await revokeProjectPermission(c.get("deps"), auth.project.id, resolveUserId(auth, p.userId), p.permissionId));
    return c.json({ success: true });
  });

/** Admin CRUD on one scope's definitions. */
function definitionRoutes(scope: PermissionScope) {
  const idParam = z.strictObject({ permissionId });
  return new Hono<AppEnv>()
    .get("/", async (c) => {
      const auth = requireAccess(c, "admin");
      return c.json({ items: await listPermissionDefinitions(c.get("deps"), auth.project.id, scope), is_paginated: false });
    })
    .post("/", async (c) => {
      const auth = requireAccess(c, "admin");
      const body = await parseBody(
        c,
        z.strictObject({ id: customPermissionId, description: description.optional(), contained_permission_ids: containedIds.optional() }),
      );
      const result = unwrap(
        await createPermissionDefinition(c.get("deps"), auth.project.id, scope, {
          id: body.id,
          description: body.description,
          containedPermissionIds: body.contained_permission_ids,
        }),
      );
      return c.json(result.definition, 201);
    })
    .patch("/:permissionId", async (c) => {
      const auth = requireAccess(c, "admin");
      const { permissionId: id } = parseParams(c, idParam);
      const body = await parseBody(
        c,
        z.strictObject({
          id: customPermissionId.optional(),
          description: description.optional(),
          contained_permission_ids: containedIds.optional(),
        }),
      );
      const result = unwrap(
        await updatePermissionDefinition(c.get("deps"), auth.project.id, scope, id, {
          id: body.id,
          description: body.description,
          containedPermissionIds: body.contained_permission_ids,
        }),
      );
      return c.json(result.definition);
    })
    .delete("/:permissionId", async (c) => {
      const auth = requireAccess(c, "admin");
      const { permissionId: id } = parseParams(c, idParam);
      unwrap(await deletePermissionDefinition(c.get("deps"), auth.project.id, scope, id));
      return c.json({ success: true });
    });
}

export const teamPermissionDefinitionsRoutes = definitionRoutes("team");
export const projectPermissionDefinitionsRoutes = definitionRoutes("project");
