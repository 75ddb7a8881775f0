/**
 * Data access for teams, memberships and member profiles. Every verb is scoped by project id,
 * so a team id from another project never matches.
 */
import { and, asc, eq, inArray, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../client";
import { contactChannels, teamMembers, teams, users } from "../schema";
import type { TeamRow, UserRecord } from "./users";

export type MembershipRow = typeof teamMembers.$inferSelect;
export type MemberProfileRecord = { member: MembershipRow; record: UserRecord };
export type TeamPatch = Partial<
  Pick<typeof teams.$inferInsert, "displayName" | "profileImageUrl" | "clientMetadata" | "clientReadOnlyMetadata" | "serverMetadata">
>;

export function insertTeamStatement(db: Db, row: typeof teams.$inferInsert) {
  return db.insert(teams).values(row);
}

/** Adds a membership, ignoring one that exists (sign-up's personal team). */
export function insertMembershipStatement(db: Db, row: typeof teamMembers.$inferInsert) {
  return db.insert(teamMembers).values(row).onConflictDoNothing();
}

/** Adds a membership; an existing one fails the whole batch (the primary key decides races). */
export function insertNewMembershipStatement(db: Db, row: typeof teamMembers.$inferInsert) {
  return db.insert(teamMembers).values(row);
}

export async function isTeamMember(db: Db, teamId: string, userId: string): Promise<boolean> {
  const row = await db
    .select({ userId: teamMembers.userId })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
    .get();
  return Boolean(row);
}

export async function findTeam(db: Db, projectId: string, teamId: string): Promise<TeamRow | null> {
  return (
    (await db
      .select()
      .from(teams)
      .where(and(eq(teams.projectId, projectId), eq(teams.id, teamId)))
      .get()) ?? null
  );
}

/** The project's teams (oldest first), or only those `userId` belongs to. */
export async function listTeamsOfProject(db: Db, projectId: string, userId?: string): Promise<TeamRow[]> {
  const where: SQL[] = [eq(teams.projectId, projectId)];
  if (userId) {
    where.push(inArray(teams.id, db.select({ id: teamMembers.teamId }).from(teamMembers).where(eq(teamMembers.userId, userId))));
  }
  return db
    .select()
    .from(teams)
    .where(and(...where))
    .orderBy(asc(teams.createdAt), asc(teams.id))
    .all();
}

/** Drops undefined fields: undefined leaves a column alone, null clears it. */
function setOnly<T extends Record<string, unknown>>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Updates a team; `event` (an insert written only if the update changed the row) runs in the same batch. */
export async function updateTeamRow(
  db: Db,
  projectId: string,
  teamId: string,
  input: TeamPatch,
  options: { event?: BatchItem<"sqlite"> } = {},
): Promise<TeamRow | null> {
  const patch = setOnly(input);
  if (Object.keys(patch).length === 0) return findTeam(db, projectId, teamId);
  const update = db
    .update(teams)
    .set(patch)
    .where(and(eq(teams.projectId, projectId), eq(teams.id, teamId)))
    .returning();
  const [rows] = options.event ? await db.batch([update, options.event]) : [await update.all()];
  return (rows as TeamRow[])[0] ?? null;
}

/** Renames the user's teams that still carry the name `from` (an upgraded anonymous user's personal team). */
export function renameTeamsOfMemberStatement(db: Db, projectId: string, userId: string, from: string, to: string) {
  const ofMember = db
    .select({ id: teamMembers.teamId })
    .from(teamMembers)
    .where(and(eq(teamMembers.projectId, projectId), eq(teamMembers.userId, userId)));
  return db
    .update(teams)
    .set({ displayName: to })
    .where(and(eq(teams.projectId, projectId), eq(teams.displayName, from), inArray(teams.id, ofMember)));
}

/** Deletes the team; memberships, grants and team API keys go with it (foreign-key cascades). */
export function deleteTeamStatement(db: Db, projectId: string, teamId: string) {
  return db
    .delete(teams)
    .where(and(eq(teams.projectId, projectId), eq(teams.id, teamId)))
    .returning({ id: teams.id });
}

/** Clears selected_team_id where it points at the team (for one user, or for everyone). */
export function clearSelectedTeamStatement(db: Db, projectId: string, teamId: string, userId?: string) {
  const where: SQL[] = [eq(users.projectId, projectId), eq(users.selectedTeamId, teamId)];
  if (userId) where.push(eq(users.id, userId));
  return db
    .update(users)
    .set({ selectedTeamId: null })
    .where(and(...where));
}

export function deleteMembershipsOfTeamStatement(db: Db, projectId: string, teamId: string) {
  return db.delete(teamMembers).where(and(eq(teamMembers.projectId, projectId), eq(teamMembers.teamId, teamId)));
}

/** Removes a membership; the RETURNING rows say whether there was one. */
export function deleteMembershipStatement(db: Db, projectId: string, teamId: string, userId: string) {
  return db
    .delete(teamMembers)
    .where(and(eq(teamMembers.projectId, projectId), eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
    .returning({ userId: teamMembers.userId });
}

/** Memberships with their users' records, oldest first; filtered by team and/or user. */
export async function listMemberProfiles(
  db: Db,
  projectId: string,
  filter: { teamId?: string; userId?: string },
): Promise<MemberProfileRecord[]> {
  const where: SQL[] = [eq(teamMembers.projectId, projectId)];
  if (filter.teamId) where.push(eq(teamMembers.teamId, filter.teamId));
  if (filter.userId) where.push(eq(teamMembers.userId, filter.userId));
  const rows = await db
    .select({ member: teamMembers, user: users, primaryEmail: contactChannels, selectedTeam: teams })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .leftJoin(
      contactChannels,
      and(eq(contactChannels.userId, users.id), eq(contactChannels.isPrimary, true), eq(contactChannels.type, "email")),
    )
    .leftJoin(teams, eq(teams.id, users.selectedTeamId))
    .where(and(...where))
    .orderBy(asc(teamMembers.createdAt), asc(teamMembers.userId))
    .all();
  return rows.map(({ member, user, primaryEmail, selectedTeam }) => ({ member, record: { user, primaryEmail, selectedTeam } }));
}

export async function findMemberProfile(db: Db, projectId: string, teamId: string, userId: string): Promise<MemberProfileRecord | null> {
  const [row] = await listMemberProfiles(db, projectId, { teamId, userId });
  return row ?? null;
}

export async function updateMemberProfileRow(
  db: Db,
  projectId: string,
  teamId: string,
  userId: string,
  input: { displayName?: string | null; profileImageUrl?: string | null },
): Promise<boolean> {
  const patch = setOnly(input);
  if (Object.keys(patch).length === 0) return isTeamMember(db, teamId, userId);
  const rows = await db
    .update(teamMembers)
    .set(patch)
    .where(and(eq(teamMembers.projectId, projectId), eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
    .returning({ userId: teamMembers.userId });
  return rows.length > 0;
}
