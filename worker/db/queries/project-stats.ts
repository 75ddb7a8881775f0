/** Counts for the console's overview, each on an index (users by project and sign-up time, teams by project, sessions by project and expiry). */
import { and, count, eq, gt, gte } from "drizzle-orm";
import type { Db } from "../client";
import { sessions, teams, users } from "../schema";

export type ProjectStats = { users: number; anonymousUsers: number; teams: number; signUpsSince: number; activeSessions: number };

export async function countProjectStats(db: Db, projectId: string, since: number, now: number): Promise<ProjectStats> {
  const byProject = eq(users.projectId, projectId);
  const [all, anonymous, teamRows, signUps, active] = await db.batch([
    db.select({ n: count() }).from(users).where(byProject),
    db
      .select({ n: count() })
      .from(users)
      .where(and(byProject, eq(users.isAnonymous, true))),
    db.select({ n: count() }).from(teams).where(eq(teams.projectId, projectId)),
    db
      .select({ n: count() })
      .from(users)
      .where(and(byProject, gte(users.signedUpAt, since))),
    db
      .select({ n: count() })
      .from(sessions)
      .where(and(eq(sessions.projectId, projectId), gt(sessions.expiresAt, now))),
  ]);
  const n = (rows: { n: number }[]) => rows[0]?.n ?? 0;
  return {
    users: n(all) - n(anonymous),
    anonymousUsers: n(anonymous),
    teams: n(teamRows),
    signUpsSince: n(signUps),
    activeSessions: n(active),
  };
}
