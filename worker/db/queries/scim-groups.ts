/**
 * SCIM Groups of a connection (issue 31) and their members (the connection's identities). Writes are
 * unexecuted statements for the caller's batch, each group write a compare-and-set on `version`.
 * Also the SQL conditions that keep group-mapped team permissions true to the groups at the moment a
 * batch runs (grantedByGroupsCondition), whatever other writes raced it.
 */
import { and, asc, count, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "../client";
import { scimGroupMembers, scimGroups, ssoIdentities } from "../schema";

export type ScimGroupRow = typeof scimGroups.$inferSelect;

/** A group of the connection, by id (null: none, or another connection's). */
export async function findScimGroup(db: Db, connectionId: string, id: string): Promise<ScimGroupRow | null> {
  const row = await db
    .select()
    .from(scimGroups)
    .where(and(eq(scimGroups.connectionId, connectionId), eq(scimGroups.id, id)))
    .get();
  return row ?? null;
}

/** The group of the connection with this exact displayName. */
export async function findScimGroupByName(db: Db, connectionId: string, displayName: string): Promise<ScimGroupRow | null> {
  const row = await db
    .select()
    .from(scimGroups)
    .where(and(eq(scimGroups.connectionId, connectionId), eq(scimGroups.displayName, displayName)))
    .get();
  return row ?? null;
}

/** What a SCIM list of Groups may be filtered on (every condition must hold). */
export type ScimGroupConditions = { displayNames: string[]; externalIds: string[] };

/** One page of the connection's groups (oldest first) and how many match in all. */
export async function listScimGroupsPage(
  db: Db,
  connectionId: string,
  conditions: ScimGroupConditions,
  offset: number,
  limit: number,
): Promise<{ rows: ScimGroupRow[]; total: number }> {
  const parts: SQL[] = [eq(scimGroups.connectionId, connectionId)];
  for (const name of conditions.displayNames) parts.push(eq(scimGroups.displayName, name));
  for (const id of conditions.externalIds) parts.push(eq(scimGroups.externalId, id));
  const where = and(...parts);
  const [rows, totals] = await db.batch([
    db.select().from(scimGroups).where(where).orderBy(asc(scimGroups.createdAt), asc(scimGroups.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(scimGroups).where(where),
  ]);
  return { rows: limit === 0 ? [] : rows, total: totals[0]?.total ?? 0 };
}

export type ScimGroupMember = { groupId: string; identityId: string; userName: string | null };

function chunked<T>(items: readonly T[]): T[][] {
  const unique = [...new Set(items)];
  return Array.from({ length: Math.ceil(unique.length / 90) }, (_, i) => unique.slice(i * 90, i * 90 + 90));
}

/** The members of these groups with the userName each was provisioned with (for `display`). */
export async function listMembersOfGroups(db: Db, groupIds: readonly string[]): Promise<ScimGroupMember[]> {
  const rows = await Promise.all(
    chunked(groupIds).map((chunk) =>
      db
        .select({
          groupId: scimGroupMembers.groupId,
          identityId: scimGroupMembers.identityId,
          userName: sql<string | null>`json_extract(${ssoIdentities.scimResource}, '$.userName')`,
        })
        .from(scimGroupMembers)
        .innerJoin(ssoIdentities, eq(ssoIdentities.id, scimGroupMembers.identityId))
        .where(inArray(scimGroupMembers.groupId, chunk))
        .orderBy(asc(ssoIdentities.createdAt), asc(ssoIdentities.id))
        .all(),
    ),
  );
  return rows.flat();
}

export type IdentityGroup = { identityId: string; groupId: string; displayName: string };

/** The groups each of these identities belongs to. */
export async function listGroupsOfIdentities(db: Db, identityIds: readonly string[]): Promise<IdentityGroup[]> {
  const rows = await Promise.all(
    chunked(identityIds).map((chunk) =>
      db
        .select({ identityId: scimGroupMembers.identityId, groupId: scimGroups.id, displayName: scimGroups.displayName })
        .from(scimGroupMembers)
        .innerJoin(scimGroups, eq(scimGroups.id, scimGroupMembers.groupId))
        .where(inArray(scimGroupMembers.identityId, chunk))
        .orderBy(asc(scimGroups.displayName))
        .all(),
    ),
  );
  return rows.flat();
}

export function insertScimGroupStatement(db: Db, row: typeof scimGroups.$inferInsert) {
  return db.insert(scimGroups).values(row);
}

/** Writes the group's new name and externalId only if it is still at `version`, bumping it; unexecuted (then abortUnlessChangedStatement). */
export function updateScimGroupIfVersionStatement(
  db: Db,
  id: string,
  version: number,
  patch: { displayName: string; externalId: string | null; updatedAt: number },
) {
  return db
    .update(scimGroups)
    .set({ ...patch, version: version + 1 })
    .where(and(eq(scimGroups.id, id), eq(scimGroups.version, version)));
}

/** Deletes the group only if it is still at `version`; unexecuted (then abortUnlessChangedStatement). */
export function deleteScimGroupIfVersionStatement(db: Db, id: string, version: number) {
  return db.delete(scimGroups).where(and(eq(scimGroups.id, id), eq(scimGroups.version, version)));
}

/** SQL: the ids of a JSON array bound as ONE parameter (D1 binds at most 100 per statement). */
const idsIn = (ids: readonly string[]) => sql`(SELECT value FROM json_each(${JSON.stringify(ids)}))`;

/** Adds members (those that are the connection's identities); a repeated add is a no-op (the primary key). One statement. */
export function insertGroupMembersStatement(db: Db, connectionId: string, groupId: string, identityIds: readonly string[]) {
  return db
    .insert(scimGroupMembers)
    .select(
      db
        .select({ groupId: sql<string>`${groupId}`.as("group_id"), identityId: ssoIdentities.id })
        .from(ssoIdentities)
        .where(and(eq(ssoIdentities.connectionId, connectionId), inArray(ssoIdentities.id, idsIn(identityIds)))),
    )
    .onConflictDoNothing();
}

/** Removes members. One statement. */
export function deleteGroupMembersStatement(db: Db, groupId: string, identityIds: readonly string[]) {
  return db
    .delete(scimGroupMembers)
    .where(and(eq(scimGroupMembers.groupId, groupId), inArray(scimGroupMembers.identityId, idsIn(identityIds))));
}

export function deleteMembersOfGroupStatement(db: Db, groupId: string) {
  return db.delete(scimGroupMembers).where(eq(scimGroupMembers.groupId, groupId));
}

/**
 * SQL: the identity is, as the statement runs, a member of a group of its connection whose displayName
 * is one of `groupNames` (the names the connection's mapping gives a permission). A grant or revoke of a
 * mapped permission carries it, so it follows the groups as they are when its batch commits, not as
 * they were read: two writes to different groups of one member cannot leave a stale grant.
 */
export function grantedByGroupsCondition(connectionId: string, identityId: string, groupNames: readonly string[]): SQL {
  return sql`EXISTS (SELECT 1 FROM ${scimGroupMembers} INNER JOIN ${scimGroups} ON ${scimGroups.id} = ${scimGroupMembers.groupId} WHERE ${scimGroupMembers.identityId} = ${identityId} AND ${scimGroups.connectionId} = ${connectionId} AND ${scimGroups.displayName} IN (SELECT value FROM json_each(${JSON.stringify(groupNames)})))`;
}

/** Moves the version of every group the identity is in (its members change when the identity is deleted); unexecuted. */
export function bumpGroupsOfIdentityStatement(db: Db, identityId: string, now: number) {
  return db
    .update(scimGroups)
    .set({ version: sql`${scimGroups.version} + 1`, updatedAt: now })
    .where(
      inArray(
        scimGroups.id,
        db.select({ id: scimGroupMembers.groupId }).from(scimGroupMembers).where(eq(scimGroupMembers.identityId, identityId)),
      ),
    );
}
