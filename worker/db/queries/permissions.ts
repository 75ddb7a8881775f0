/**
 * Data access for permission definitions (team and project scope) and the direct grants of
 * team and project permissions. Recursion (containment) is computed by the service on read.
 */
import { and, eq, type SQL, sql } from "drizzle-orm";
import { forgetAuthRows } from "../auth-row-cache";
import type { Db } from "../client";
import { permissionDefinitions, projectPermissions, projects, teamMembers, teamPermissions, teams, users } from "../schema";

export type PermissionScope = "team" | "project";
export type PermissionDefinitionRow = typeof permissionDefinitions.$inferSelect;

export async function listDefinitions(db: Db, projectId: string, scope: PermissionScope): Promise<PermissionDefinitionRow[]> {
  return db
    .select()
    .from(permissionDefinitions)
    .where(and(eq(permissionDefinitions.projectId, projectId), eq(permissionDefinitions.scope, scope)))
    .orderBy(permissionDefinitions.id)
    .all();
}

/** A definition by id in either scope (ids are unique per project across scopes), or null. */
export async function findDefinition(db: Db, projectId: string, id: string): Promise<PermissionDefinitionRow | null> {
  return (
    (await db
      .select()
      .from(permissionDefinitions)
      .where(and(eq(permissionDefinitions.projectId, projectId), eq(permissionDefinitions.id, id)))
      .get()) ?? null
  );
}

/** Inserts a definition; returns false when the id is already taken (in either scope). */
export async function insertDefinition(db: Db, row: typeof permissionDefinitions.$inferInsert): Promise<boolean> {
  const rows = await db.insert(permissionDefinitions).values(row).onConflictDoNothing().returning({ id: permissionDefinitions.id });
  return rows.length > 0;
}

/** Insert-if-absent, unexecuted (for a D1 batch): seeding defaults never overwrites an edited definition. */
export function insertDefinitionIfAbsentStatement(db: Db, row: typeof permissionDefinitions.$inferInsert) {
  return db.insert(permissionDefinitions).values(row).onConflictDoNothing();
}

/**
 * Updates a definition in one batch. A new id (rename) is carried over to every grant of it, to
 * other definitions' containment and to the project's default permission lists. Returns null when no definition of that scope existed; a
 * taken new id raises a UNIQUE violation (the caller maps it).
 */
export async function rewriteDefinition(
  db: Db,
  projectId: string,
  id: string,
  scope: PermissionScope,
  patch: { id: string; description?: string | null; containedPermissionIds?: string[] },
): Promise<PermissionDefinitionRow | null> {
  const where = and(
    eq(permissionDefinitions.projectId, projectId),
    eq(permissionDefinitions.id, id),
    eq(permissionDefinitions.scope, scope),
  );
  const update = db.update(permissionDefinitions).set(patch).where(where).returning();
  if (patch.id === id) return (await update.get()) ?? null;
  const grants =
    scope === "team"
      ? db
          .update(teamPermissions)
          .set({ permissionId: patch.id })
          .where(and(eq(teamPermissions.projectId, projectId), eq(teamPermissions.permissionId, id)))
      : db
          .update(projectPermissions)
          .set({ permissionId: patch.id })
          .where(and(eq(projectPermissions.projectId, projectId), eq(projectPermissions.permissionId, id)));
  const renamed = sql`(SELECT json_group_array(CASE WHEN value = ${id} THEN ${patch.id} ELSE value END) FROM json_each(${permissionDefinitions.containedPermissionIds}))`;
  const [rows] = await db.batch([
    update,
    grants,
    db
      .update(permissionDefinitions)
      .set({ containedPermissionIds: renamed as unknown as string[] })
      .where(and(eq(permissionDefinitions.projectId, projectId), containsId(id))),
    rewriteDefaultsStatement(db, projectId, scope, id, patch.id),
  ]);
  forgetAuthRows(); // the project's config changed (its default lists)
  return rows[0] ?? null;
}

function containsId(id: string): SQL {
  return sql`EXISTS (SELECT 1 FROM json_each(${permissionDefinitions.containedPermissionIds}) WHERE value = ${id})`;
}

/** The project-config lists of default permissions that name ids of a scope. */
const DEFAULT_LISTS: Record<PermissionScope, string[]> = {
  team: ["team_creator_default_permissions", "team_member_default_permissions"],
  project: ["user_default_permissions"],
};

/**
 * Rewrites `id` in the project's default permission lists (config JSON), unexecuted: renamed to
 * `newId`, or dropped when `newId` is null. One SQL statement, so it cannot lose a concurrent
 * config update the way a read-modify-write would.
 */
function rewriteDefaultsStatement(db: Db, projectId: string, scope: PermissionScope, id: string, newId: string | null) {
  let config: SQL = sql`${projects.config}`;
  for (const key of DEFAULT_LISTS[scope]) {
    const path = `$.${key}`;
    const item =
      newId === null
        ? sql`SELECT json_group_array(json(value)) FROM json_each(${projects.config}, ${path}) WHERE json_extract(value, '$.id') <> ${id}`
        : sql`SELECT json_group_array(json_object('id', CASE WHEN json_extract(value, '$.id') = ${id} THEN ${newId} ELSE json_extract(value, '$.id') END)) FROM json_each(${projects.config}, ${path})`;
    config = sql`CASE WHEN json_type(${projects.config}, ${path}) = 'array' THEN json_set(${config}, ${path}, json((${item}))) ELSE ${config} END`;
  }
  return db
    .update(projects)
    .set({ config: config as unknown as Record<string, unknown> })
    .where(eq(projects.id, projectId));
}

/** SQL: the contained ids of the current row, without `id` (as a JSON array). */
function containedWithout(id: string): SQL {
  return sql`(SELECT json_group_array(value) FROM json_each(${permissionDefinitions.containedPermissionIds}) WHERE value <> ${id})`;
}

/**
 * Deletes a definition, every grant of it, and its id from other definitions' containment and
 * from the project's default permission lists, in one batch. Returns false when no definition of that scope existed.
 */
export async function deleteDefinitionEverywhere(db: Db, projectId: string, id: string, scope: PermissionScope): Promise<boolean> {
  const grants =
    scope === "team"
      ? db.delete(teamPermissions).where(and(eq(teamPermissions.projectId, projectId), eq(teamPermissions.permissionId, id)))
      : db.delete(projectPermissions).where(and(eq(projectPermissions.projectId, projectId), eq(projectPermissions.permissionId, id)));
  const [deleted] = await db.batch([
    db
      .delete(permissionDefinitions)
      .where(and(eq(permissionDefinitions.projectId, projectId), eq(permissionDefinitions.id, id), eq(permissionDefinitions.scope, scope)))
      .returning({ id: permissionDefinitions.id }),
    grants,
    db
      .update(permissionDefinitions)
      .set({ containedPermissionIds: containedWithout(id) as unknown as string[] })
      .where(and(eq(permissionDefinitions.projectId, projectId), containsId(id))),
    rewriteDefaultsStatement(db, projectId, scope, id, null),
  ]);
  forgetAuthRows(); // the project's config changed (its default lists)
  return deleted.length > 0;
}

// ---- team grants ----------------------------------------------------------------------------

/**
 * Grants a team permission only while the user is a member of the team, unexecuted. With
 * `requireDefinition`, the grant is also skipped unless a team-scope definition of that id exists
 * (project defaults may name ids an admin deleted since). Idempotent.
 */
export function insertTeamGrantStatement(
  db: Db,
  row: { projectId: string; teamId: string; userId: string; permissionId: string; createdAt: number },
  options: { requireDefinition: boolean; requireMembership: boolean; onlyIf?: SQL },
) {
  const conditions: SQL[] = [sql`1 = 1`];
  // A caller's own condition, checked as the statement runs (SCIM: the member is still in a group that maps the permission).
  if (options.onlyIf) conditions.push(options.onlyIf);
  if (options.requireMembership) {
    conditions.push(
      sql`EXISTS (SELECT 1 FROM ${teamMembers} WHERE ${teamMembers.teamId} = ${row.teamId} AND ${teamMembers.userId} = ${row.userId})`,
    );
  }
  if (options.requireDefinition) conditions.push(definitionExists(row.projectId, row.permissionId, "team"));
  return db
    .insert(teamPermissions)
    .select(
      sql`SELECT ${row.projectId}, ${row.teamId}, ${row.userId}, ${row.permissionId}, ${row.createdAt} WHERE ${sql.join(conditions, sql` AND `)}`,
    )
    .onConflictDoNothing();
}

function definitionExists(projectId: string, id: string, scope: PermissionScope): SQL {
  return sql`EXISTS (SELECT 1 FROM ${permissionDefinitions} WHERE ${permissionDefinitions.projectId} = ${projectId} AND ${permissionDefinitions.id} = ${id} AND ${permissionDefinitions.scope} = ${scope})`;
}

/**
 * Deletes one direct grant (unexecuted; returns the deleted ids: none when the user did not hold it directly).
 * `onlyIf`: a caller's own condition, checked as the statement runs (SCIM: no remaining group maps the permission).
 */
export function deleteTeamGrantStatement(db: Db, projectId: string, teamId: string, userId: string, permissionId: string, onlyIf?: SQL) {
  return db
    .delete(teamPermissions)
    .where(
      and(
        eq(teamPermissions.projectId, projectId),
        eq(teamPermissions.teamId, teamId),
        eq(teamPermissions.userId, userId),
        eq(teamPermissions.permissionId, permissionId),
        onlyIf,
      ),
    )
    .returning({ id: teamPermissions.permissionId });
}

/** Removes all of a user's grants in one team, unexecuted. */
export function deleteTeamGrantsOfMemberStatement(db: Db, teamId: string, userId: string) {
  return db.delete(teamPermissions).where(and(eq(teamPermissions.teamId, teamId), eq(teamPermissions.userId, userId)));
}

export type TeamGrant = { teamId: string; userId: string; permissionId: string };

/** Direct team grants, counted only while the user is still a member of the team. */
export async function listTeamGrants(db: Db, projectId: string, filter: { teamId?: string; userId?: string }): Promise<TeamGrant[]> {
  const conditions: SQL[] = [eq(teamPermissions.projectId, projectId)];
  if (filter.teamId) conditions.push(eq(teamPermissions.teamId, filter.teamId));
  if (filter.userId) conditions.push(eq(teamPermissions.userId, filter.userId));
  return db
    .select({ teamId: teamPermissions.teamId, userId: teamPermissions.userId, permissionId: teamPermissions.permissionId })
    .from(teamPermissions)
    .innerJoin(teamMembers, and(eq(teamMembers.teamId, teamPermissions.teamId), eq(teamMembers.userId, teamPermissions.userId)))
    .where(and(...conditions))
    .orderBy(teamPermissions.teamId, teamPermissions.userId, teamPermissions.permissionId)
    .all();
}

// ---- project grants -------------------------------------------------------------------------

/** Grants a project permission, unexecuted; with `requireDefinition`, only if the definition exists. Idempotent. */
export function insertProjectGrantStatement(
  db: Db,
  row: { projectId: string; userId: string; permissionId: string; createdAt: number },
  options: { requireDefinition: boolean },
) {
  const condition = options.requireDefinition ? definitionExists(row.projectId, row.permissionId, "project") : sql`1 = 1`;
  return db
    .insert(projectPermissions)
    .select(sql`SELECT ${row.projectId}, ${row.userId}, ${row.permissionId}, ${row.createdAt} WHERE ${condition}`)
    .onConflictDoNothing();
}

/** Deletes one direct grant (unexecuted; returns the deleted ids: none when the user did not hold it directly). */
export function deleteProjectGrantStatement(db: Db, projectId: string, userId: string, permissionId: string) {
  return db
    .delete(projectPermissions)
    .where(
      and(
        eq(projectPermissions.projectId, projectId),
        eq(projectPermissions.userId, userId),
        eq(projectPermissions.permissionId, permissionId),
      ),
    )
    .returning({ id: projectPermissions.permissionId });
}

export type ProjectGrant = { userId: string; permissionId: string };

export async function listProjectGrants(db: Db, projectId: string, filter: { userId?: string }): Promise<ProjectGrant[]> {
  const conditions: SQL[] = [eq(projectPermissions.projectId, projectId)];
  if (filter.userId) conditions.push(eq(projectPermissions.userId, filter.userId));
  return db
    .select({ userId: projectPermissions.userId, permissionId: projectPermissions.permissionId })
    .from(projectPermissions)
    .where(and(...conditions))
    .orderBy(projectPermissions.userId, projectPermissions.permissionId)
    .all();
}

/** Is the user a member of the team, and is the team in this project? (Team ids are global.) */
export async function isMemberInProject(db: Db, projectId: string, teamId: string, userId: string): Promise<boolean> {
  const row = await db
    .select({ userId: teamMembers.userId })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(and(eq(teams.projectId, projectId), eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
    .get();
  return Boolean(row);
}

export async function userExistsInProject(db: Db, projectId: string, userId: string): Promise<boolean> {
  const row = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.projectId, projectId), eq(users.id, userId)))
    .get();
  return Boolean(row);
}
