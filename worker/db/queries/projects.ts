/** Data access for projects. */
import { and, eq, inArray, type Placeholder } from "drizzle-orm";
import { forgetAuthRows } from "../auth-row-cache";
import type { Db } from "../client";
import { projects, teamMembers } from "../schema";
import { insertEventIfChangedStatement, type NewEvent } from "./events";

export type ProjectRow = typeof projects.$inferSelect;

/** The query behind findProjectById, unexecuted (for a D1 batch). */
export function projectByIdQuery(db: Db, id: string | Placeholder) {
  return db.select().from(projects).where(eq(projects.id, id)).limit(1);
}

export async function findProjectById(db: Db, id: string): Promise<ProjectRow | null> {
  return (await projectByIdQuery(db, id).get()) ?? null;
}

export function insertProjectStatement(db: Db, row: typeof projects.$inferInsert) {
  return db.insert(projects).values(row);
}

export async function updateProject(db: Db, id: string, patch: Partial<typeof projects.$inferInsert>): Promise<ProjectRow | null> {
  const row = (await db.update(projects).set(patch).where(eq(projects.id, id)).returning().get()) ?? null;
  forgetAuthRows();
  return row;
}

/**
 * Updates the project only if its config is still at `version` (the one the caller read), so two
 * concurrent config writes cannot lose one another's change; null when it moved on.
 */
/** Compare-and-set on config_version; the event is written in the same batch, only if the update won. */
export async function updateProjectAtConfigVersion(
  db: Db,
  id: string,
  version: number,
  patch: Partial<typeof projects.$inferInsert>,
  event: NewEvent,
): Promise<ProjectRow | null> {
  const [rows] = await db.batch([
    db
      .update(projects)
      .set({ ...patch, configVersion: version + 1 })
      .where(and(eq(projects.id, id), eq(projects.configVersion, version)))
      .returning(),
    insertEventIfChangedStatement(db, event),
  ]);
  forgetAuthRows();
  return rows[0] ?? null;
}

export async function deleteProject(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(projects).where(eq(projects.id, id)).returning({ id: projects.id });
  forgetAuthRows();
  return rows.length > 0;
}

/** Projects owned by any internal-project team the user belongs to. */
export async function listProjectsOwnedByUser(db: Db, internalUserId: string): Promise<ProjectRow[]> {
  const teamIds = db.select({ id: teamMembers.teamId }).from(teamMembers).where(eq(teamMembers.userId, internalUserId));
  return db.select().from(projects).where(inArray(projects.ownerTeamId, teamIds)).orderBy(projects.createdAt).all();
}

export async function isProjectOwnedByUser(db: Db, projectId: string, internalUserId: string): Promise<boolean> {
  const row = await db
    .select({ id: projects.id })
    .from(projects)
    .innerJoin(teamMembers, eq(teamMembers.teamId, projects.ownerTeamId))
    .where(and(eq(projects.id, projectId), eq(teamMembers.userId, internalUserId)))
    .get();
  return Boolean(row);
}

export async function setProjectOwnerTeam(db: Db, projectId: string, teamId: string): Promise<void> {
  await db.update(projects).set({ ownerTeamId: teamId }).where(eq(projects.id, projectId));
  forgetAuthRows();
}
