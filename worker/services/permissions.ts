/**
 * Permissions: the built-in system team permissions, permission checks with containment
 * (recursion), grants and revocations, listing, and the project's default permission sets
 * (statements other services put into their own creation batches).
 */

import { SYSTEM_TEAM_PERMISSIONS } from "@doorman/shared/constants";
import type { SQL } from "drizzle-orm";
import type { BatchItem as DrizzleBatchItem } from "drizzle-orm/batch";
import {
  deleteProjectGrantStatement,
  deleteTeamGrantStatement,
  deleteTeamGrantsOfMemberStatement,
  findDefinition,
  insertDefinitionIfAbsentStatement,
  insertProjectGrantStatement,
  insertTeamGrantStatement,
  isMemberInProject,
  listDefinitions,
  listProjectGrants,
  listTeamGrants,
  type PermissionScope,
  userExistsInProject,
} from "../db/queries/permissions";
import type { ProjectRow } from "../db/queries/projects";
import type { Deps } from "./deps";
import { eventIfChangedStatement } from "./events";
import { readProjectConfig } from "./project-config/flat";
import { fail, type Problem } from "./result";

/** One statement of a D1 batch (what `db.batch` accepts). */
export type BatchItem = DrizzleBatchItem<"sqlite">;

/** System team permissions, built in, not stored (the list is part of the wire contract). */
export { SYSTEM_TEAM_PERMISSIONS };
export type SystemTeamPermission = (typeof SYSTEM_TEAM_PERMISSIONS)[number];

export const SYSTEM_PERMISSION_DESCRIPTIONS: Record<SystemTeamPermission, string> = {
  $update_team: "Update the team information",
  $delete_team: "Delete the team",
  $read_members: "Read and list the other members of the team",
  $remove_members: "Remove other members from the team",
  $invite_members: "Invite other users to the team",
  $manage_api_keys: "Create and manage API keys for the team",
};

export function isSystemTeamPermission(id: string): id is SystemTeamPermission {
  return (SYSTEM_TEAM_PERMISSIONS as readonly string[]).includes(id);
}

/**
 * Expands direct grants through containment: every permission reachable from `direct`, each
 * once. Unknown ids (a definition deleted since) are dropped; a visited set makes cycles harmless.
 */
export function expandPermissions(direct: Iterable<string>, containment: Map<string, string[]>, recursive = true): Set<string> {
  const out = new Set<string>();
  const stack = [...direct];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (out.has(id) || !containment.has(id)) continue;
    out.add(id);
    if (recursive) stack.push(...containment.get(id)!);
  }
  return out;
}

/** Containment map of a scope: stored definitions, plus the system permissions (leaves) for teams. */
export async function containmentMap(deps: Deps, projectId: string, scope: PermissionScope): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>();
  if (scope === "team") for (const id of SYSTEM_TEAM_PERMISSIONS) map.set(id, []);
  for (const row of await listDefinitions(deps.db, projectId, scope)) map.set(row.id, row.containedPermissionIds);
  return map;
}

/** Does the user hold the team permission, directly or through containment (recursive)? */
export async function hasTeamPermission(
  deps: Deps,
  projectId: string,
  teamId: string,
  userId: string,
  permissionId: string,
): Promise<boolean> {
  const [grants, containment] = await Promise.all([
    listTeamGrants(deps.db, projectId, { teamId, userId }),
    containmentMap(deps, projectId, "team"),
  ]);
  if (grants.length === 0) return false;
  return expandPermissions(
    grants.map((g) => g.permissionId),
    containment,
  ).has(permissionId);
}

/** Does the user hold the project permission, directly or through containment? */
export async function hasProjectPermission(deps: Deps, projectId: string, userId: string, permissionId: string): Promise<boolean> {
  const [grants, containment] = await Promise.all([
    listProjectGrants(deps.db, projectId, { userId }),
    containmentMap(deps, projectId, "project"),
  ]);
  if (grants.length === 0) return false;
  return expandPermissions(
    grants.map((g) => g.permissionId),
    containment,
  ).has(permissionId);
}

// ---- default permission sets ------------------------------------------------------------------

/**
 * Statements granting the project's default team permissions to a new member ("creator" or
 * "member"); include them in the same db.batch as the membership insert. Ids the project no
 * longer defines are skipped by the statement itself, so a stale default never fails a sign-up.
 */
export function defaultTeamGrantStatements(
  deps: Deps,
  project: ProjectRow,
  teamId: string,
  userId: string,
  kind: "creator" | "member",
): BatchItem[] {
  const config = readProjectConfig(project.config);
  const defaults = kind === "creator" ? config.team_creator_default_permissions : config.team_member_default_permissions;
  const createdAt = deps.now();
  return defaults.flatMap(({ id }) => [
    insertTeamGrantStatement(
      deps.db,
      { projectId: project.id, teamId, userId, permissionId: id, createdAt },
      // The membership row is inserted by the same batch, so it is not required to exist yet.
      { requireDefinition: !isSystemTeamPermission(id), requireMembership: false },
    ),
    // A member joining is granted each default (the wire's team_permission.created per grant); a
    // creator's grants come with the team's creation, as the reference announces them.
    ...(kind === "member"
      ? [eventIfChangedStatement(deps, project.id, "team_permission.created", { teamId, userId }, { permission_id: id })]
      : []),
  ]);
}

/** Statements granting the project's user_default_permissions to a new user (same batch as the user insert). */
export function defaultUserGrantStatements(deps: Deps, project: ProjectRow, userId: string): BatchItem[] {
  const config = readProjectConfig(project.config);
  const createdAt = deps.now();
  return config.user_default_permissions.map(({ id }) =>
    insertProjectGrantStatement(deps.db, { projectId: project.id, userId, permissionId: id, createdAt }, { requireDefinition: true }),
  );
}

/** Statements removing all of a user's team permissions in one team (used when a member leaves or is removed). */
export function revokeTeamGrantsStatements(deps: Deps, teamId: string, userId: string): BatchItem[] {
  return [deleteTeamGrantsOfMemberStatement(deps.db, teamId, userId)];
}

/** The definitions every project starts with (migration 0002 seeds the same rows for older projects). */
export const DEFAULT_TEAM_DEFINITIONS = [
  { id: "team_admin", description: "Default permission for team creators", contained: [...SYSTEM_TEAM_PERMISSIONS] },
  { id: "team_member", description: "Default permission for team members", contained: ["$read_members", "$invite_members"] },
] as const;

/** Statements creating the default definitions (team_admin, team_member) for a NEW project; insert-if-absent. */
export function defaultDefinitionStatements(deps: Deps, projectId: string): BatchItem[] {
  const createdAt = deps.now();
  return DEFAULT_TEAM_DEFINITIONS.map((d) =>
    insertDefinitionIfAbsentStatement(deps.db, {
      projectId,
      id: d.id,
      scope: "team",
      description: d.description,
      containedPermissionIds: [...d.contained],
      createdAt,
    }),
  );
}

// ---- grants through the API ---------------------------------------------------------------------

export type ScopeProblem = Problem<"permission_not_found" | "wrong_permission_scope">;

/** Checks that `permissionId` names a permission of `scope` (system ones count for teams). */
export async function checkPermissionScope(
  deps: Deps,
  projectId: string,
  permissionId: string,
  scope: PermissionScope,
): Promise<{ ok: true } | ScopeProblem> {
  if (scope === "team" && isSystemTeamPermission(permissionId)) return { ok: true };
  const row = await findDefinition(deps.db, projectId, permissionId);
  if (!row) return fail("permission_not_found", { permissionId });
  if (row.scope !== scope) return fail("wrong_permission_scope", { permissionId, expected: scope, actual: row.scope as PermissionScope });
  return { ok: true };
}

type MembershipProblem = Problem<"team_not_member">;

/**
 * Statements granting one team permission to a member, with its event when the grant is new, for the
 * caller's batch. The grant needs the membership (and the definition, unless a system permission) as
 * the batch runs; `onlyIf` adds a caller's own condition (SCIM: a group of the member still maps it).
 */
export function grantTeamPermissionStatements(
  deps: Deps,
  projectId: string,
  teamId: string,
  userId: string,
  permissionId: string,
  onlyIf?: SQL,
): BatchItem[] {
  return [
    insertTeamGrantStatement(
      deps.db,
      { projectId, teamId, userId, permissionId, createdAt: deps.now() },
      { requireDefinition: !isSystemTeamPermission(permissionId), requireMembership: true, onlyIf },
    ),
    eventIfChangedStatement(deps, projectId, "team_permission.created", { teamId, userId }, { permission_id: permissionId }),
  ];
}

/** Statements revoking one direct team grant, with its event when there was one; `onlyIf` as for grants. */
export function revokeTeamPermissionStatements(
  deps: Deps,
  projectId: string,
  teamId: string,
  userId: string,
  permissionId: string,
  onlyIf?: SQL,
): BatchItem[] {
  return [
    deleteTeamGrantStatement(deps.db, projectId, teamId, userId, permissionId, onlyIf),
    eventIfChangedStatement(deps, projectId, "team_permission.deleted", { teamId, userId }, { permission_id: permissionId }),
  ];
}

export async function grantTeamPermission(
  deps: Deps,
  projectId: string,
  teamId: string,
  userId: string,
  permissionId: string,
): Promise<{ ok: true } | MembershipProblem | ScopeProblem> {
  if (!(await isMemberInProject(deps.db, projectId, teamId, userId))) return fail("team_not_member", { teamId, userId });
  const scope = await checkPermissionScope(deps, projectId, permissionId, "team");
  if (!scope.ok) return scope;
  // Conditional on membership and definition in the statement itself: a concurrent removal wins.
  // The event is written only when the grant is new (a repeated grant changes nothing).
  await deps.db.batch(grantTeamPermissionStatements(deps, projectId, teamId, userId, permissionId) as [BatchItem, ...BatchItem[]]);
  return { ok: true };
}

export async function revokeTeamPermission(
  deps: Deps,
  projectId: string,
  teamId: string,
  userId: string,
  permissionId: string,
): Promise<{ ok: true } | MembershipProblem | Problem<"team_permission_not_found">> {
  if (!(await isMemberInProject(deps.db, projectId, teamId, userId))) return fail("team_not_member", { teamId, userId });
  // Only a direct grant can be revoked; one held through containment is revoked at its source.
  const [deleted] = await deps.db.batch(
    revokeTeamPermissionStatements(deps, projectId, teamId, userId, permissionId) as [BatchItem, ...BatchItem[]],
  );
  if ((deleted as unknown[]).length === 0) return fail("team_permission_not_found", { teamId, userId, permissionId });
  return { ok: true };
}

export async function grantProjectPermission(
  deps: Deps,
  projectId: string,
  userId: string,
  permissionId: string,
): Promise<{ ok: true } | Problem<"user_not_found"> | ScopeProblem> {
  if (!(await userExistsInProject(deps.db, projectId, userId))) return fail("user_not_found");
  const scope = await checkPermissionScope(deps, projectId, permissionId, "project");
  if (!scope.ok) return scope;
  await deps.db.batch([
    insertProjectGrantStatement(deps.db, { projectId, userId, permissionId, createdAt: deps.now() }, { requireDefinition: true }),
    eventIfChangedStatement(deps, projectId, "project_permission.created", { userId }, { permission_id: permissionId }),
  ]);
  return { ok: true };
}

export async function revokeProjectPermission(
  deps: Deps,
  projectId: string,
  userId: string,
  permissionId: string,
): Promise<{ ok: true } | Problem<"user_not_found" | "permission_not_found">> {
  if (!(await userExistsInProject(deps.db, projectId, userId))) return fail("user_not_found");
  const [deleted] = await deps.db.batch([
    deleteProjectGrantStatement(deps.db, projectId, userId, permissionId),
    eventIfChangedStatement(deps, projectId, "project_permission.deleted", { userId }, { permission_id: permissionId }),
  ]);
  if (deleted.length === 0) return fail("permission_not_found", { permissionId });
  return { ok: true };
}

// ---- listing ------------------------------------------------------------------------------------

export type TeamPermissionItem = { id: string; team_id: string; user_id: string };
export type ProjectPermissionItem = { id: string; user_id: string };

/** Team permissions per (team, user), direct or expanded; sorted by team, user, id (as the reference). */
export async function listTeamPermissions(
  deps: Deps,
  projectId: string,
  filter: { teamId?: string; userId?: string; permissionId?: string; recursive: boolean },
): Promise<TeamPermissionItem[]> {
  const [grants, containment] = await Promise.all([listTeamGrants(deps.db, projectId, filter), containmentMap(deps, projectId, "team")]);
  const groups = new Map<string, { teamId: string; userId: string; ids: string[] }>();
  for (const g of grants) {
    const key = `${g.teamId}\u0000${g.userId}`;
    const group = groups.get(key) ?? { teamId: g.teamId, userId: g.userId, ids: [] };
    group.ids.push(g.permissionId);
    groups.set(key, group);
  }
  const items: TeamPermissionItem[] = [];
  for (const group of groups.values()) {
    for (const id of expandPermissions(group.ids, containment, filter.recursive))
      items.push({ id, team_id: group.teamId, user_id: group.userId });
  }
  return items
    .filter((i) => !filter.permissionId || i.id === filter.permissionId)
    .sort((a, b) => compare(a.team_id, b.team_id) || compare(a.user_id, b.user_id) || compare(a.id, b.id));
}

export async function listProjectPermissions(
  deps: Deps,
  projectId: string,
  filter: { userId?: string; permissionId?: string; recursive: boolean },
): Promise<ProjectPermissionItem[]> {
  const [grants, containment] = await Promise.all([
    listProjectGrants(deps.db, projectId, filter),
    containmentMap(deps, projectId, "project"),
  ]);
  const byUser = new Map<string, string[]>();
  for (const g of grants) byUser.set(g.userId, [...(byUser.get(g.userId) ?? []), g.permissionId]);
  const items: ProjectPermissionItem[] = [];
  for (const [userId, ids] of byUser)
    for (const id of expandPermissions(ids, containment, filter.recursive)) items.push({ id, user_id: userId });
  return items
    .filter((i) => !filter.permissionId || i.id === filter.permissionId)
    .sort((a, b) => compare(a.user_id, b.user_id) || compare(a.id, b.id));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
