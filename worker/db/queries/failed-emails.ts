/**
 * What the failed-emails digest reads: the outbox rows that failed since a time (every project),
 * and each project's owners (the members of its owner team in the internal project) with their
 * primary email.
 */
import { and, asc, eq, gte, inArray } from "drizzle-orm";
import type { Db } from "../client";
import { contactChannels, emailOutbox, projects, teamMembers } from "../schema";

/** The statuses whose simple status is "error" (sdk/src/shared/email-outbox-statuses.ts). */
const FAILED_STATUSES = ["render-error", "server-error", "bounced"];
/** D1 binds at most 100 parameters per statement: ids go in chunks below that. */
const CHUNK = 90;

export type FailedEmailRow = { projectId: string; recipient: unknown; subject: string | null; createdAt: number };
export type ProjectOwnerRow = { projectId: string; userId: string; email: string | null };

/** Failed emails created at or after `since`, by project then age; at most `limit` rows. */
export function listFailedEmailsSince(db: Db, since: number, limit: number): Promise<FailedEmailRow[]> {
  return db
    .select({
      projectId: emailOutbox.projectId,
      recipient: emailOutbox.recipient,
      subject: emailOutbox.subject,
      createdAt: emailOutbox.createdAt,
    })
    .from(emailOutbox)
    .where(and(inArray(emailOutbox.status, FAILED_STATUSES), gte(emailOutbox.createdAt, since)))
    .orderBy(asc(emailOutbox.projectId), asc(emailOutbox.createdAt), asc(emailOutbox.id))
    .limit(limit)
    .all();
}

/** The owners of these projects, with their primary email (null when they have none). */
export async function listProjectOwners(db: Db, projectIds: string[]): Promise<ProjectOwnerRow[]> {
  const rows: ProjectOwnerRow[] = [];
  for (let i = 0; i < projectIds.length; i += CHUNK) {
    const ids = projectIds.slice(i, i + CHUNK);
    rows.push(
      ...(await db
        .select({ projectId: projects.id, userId: teamMembers.userId, email: contactChannels.value })
        .from(projects)
        .innerJoin(teamMembers, eq(teamMembers.teamId, projects.ownerTeamId))
        .leftJoin(
          contactChannels,
          and(eq(contactChannels.userId, teamMembers.userId), eq(contactChannels.isPrimary, true), eq(contactChannels.type, "email")),
        )
        .where(inArray(projects.id, ids))
        .orderBy(asc(projects.id), asc(teamMembers.createdAt))
        .all()),
    );
  }
  return rows;
}
