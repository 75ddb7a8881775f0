/** Data access for teams and memberships (the parts the foundation needs). */
import { and, eq } from "drizzle-orm";
import type { Db } from "../../lib/context";
import { teamMembers, teams } from "../schema";

export function insertTeamStatement(db: Db, row: typeof teams.$inferInsert) {
  return db.insert(teams).values(row);
}

export function insertMembershipStatement(db: Db, row: typeof teamMembers.$inferInsert) {
  return db.insert(teamMembers).values(row).onConflictDoNothing();
}

export async function isTeamMember(db: Db, teamId: string, userId: string): Promise<boolean> {
  const row = await db
    .select({ userId: teamMembers.userId })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
    .get();
  return Boolean(row);
}

export async function findTeam(db: Db, projectId: string, teamId: string) {
  return (
    (await db
      .select()
      .from(teams)
      .where(and(eq(teams.projectId, projectId), eq(teams.id, teamId)))
      .get()) ?? null
  );
}
