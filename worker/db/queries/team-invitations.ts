/**
 * Data access for team invitations: verification codes with purpose `team_invitation` and data
 * `{team_id, email}`. Open = not used and not expired. Codes are stored as hashes only.
 */
import { and, asc, eq, gt, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { Db } from "../client";
import { contactChannels, teams, verificationCodes } from "../schema";

export const TEAM_INVITATION_PURPOSE = "team_invitation";

export type InvitationRow = { id: string; teamId: string; teamDisplayName: string; email: string; expiresAt: number };

const teamIdOf = sql<string>`json_extract(${verificationCodes.data}, '$.team_id')`;
const emailOf = sql<string>`json_extract(${verificationCodes.data}, '$.email')`;

/** Open invitations of the project matching `extra` (joined with their team), oldest first. */
function openInvitations(db: Db, projectId: string, now: number, extra: SQL) {
  return db
    .select({
      id: verificationCodes.id,
      teamId: teams.id,
      teamDisplayName: teams.displayName,
      email: emailOf,
      expiresAt: verificationCodes.expiresAt,
    })
    .from(verificationCodes)
    .innerJoin(teams, and(eq(teams.projectId, projectId), eq(teams.id, teamIdOf)))
    .where(
      and(
        eq(verificationCodes.projectId, projectId),
        eq(verificationCodes.purpose, TEAM_INVITATION_PURPOSE),
        gt(verificationCodes.expiresAt, now),
        isNull(verificationCodes.usedAt),
        extra,
      ),
    )
    .orderBy(asc(verificationCodes.createdAt), asc(verificationCodes.id));
}

export function listOpenInvitationsOfTeam(db: Db, projectId: string, teamId: string, now: number): Promise<InvitationRow[]> {
  return openInvitations(db, projectId, now, eq(teamIdOf, teamId)).all();
}

/** Open invitations sent to any verified email of the user. */
export function listOpenInvitationsForUser(db: Db, projectId: string, userId: string, now: number): Promise<InvitationRow[]> {
  const verifiedEmails = db
    .select({ value: contactChannels.value })
    .from(contactChannels)
    .where(and(eq(contactChannels.userId, userId), eq(contactChannels.type, "email"), eq(contactChannels.isVerified, true)));
  return openInvitations(db, projectId, now, inArray(emailOf, verifiedEmails)).all();
}

export async function findOpenInvitation(db: Db, projectId: string, id: string, now: number): Promise<InvitationRow | null> {
  return (await openInvitations(db, projectId, now, eq(verificationCodes.id, id)).get()) ?? null;
}

/** Revokes (deletes) one invitation of the team; false when there was none. */
export async function deleteInvitationOfTeam(db: Db, projectId: string, teamId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(verificationCodes)
    .where(
      and(
        eq(verificationCodes.projectId, projectId),
        eq(verificationCodes.purpose, TEAM_INVITATION_PURPOSE),
        eq(verificationCodes.id, id),
        eq(teamIdOf, teamId),
      ),
    )
    .returning({ id: verificationCodes.id });
  return rows.length > 0;
}

/** Every invitation of the team (used or not), for the team-deletion batch. */
export function deleteInvitationsOfTeamStatement(db: Db, projectId: string, teamId: string) {
  return db
    .delete(verificationCodes)
    .where(and(eq(verificationCodes.projectId, projectId), eq(verificationCodes.purpose, TEAM_INVITATION_PURPOSE), eq(teamIdOf, teamId)));
}
