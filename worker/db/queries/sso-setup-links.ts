/**
 * Setup links of enterprise SSO (issue 31, ADMIN): a team's self-serve link for its IT admin is a
 * verification code of purpose "sso_setup_link" (only its SHA-256 stored, `data.team_id` its team).
 * Unlike an emailed code it is presented on every request of the setup page, so it is looked up by
 * its hash alone (no attempt counter to run out) and stays good until it expires.
 */
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../client";
import { verificationCodes } from "../schema";

export const SSO_SETUP_LINK_PURPOSE = "sso_setup_link";

export type SsoSetupLinkRow = { id: string; teamId: string; expiresAt: number };

/** The live (unexpired, unrevoked) setup link of the project whose token hashes to `tokenHash`, or null. */
export async function findLiveSsoSetupLink(db: Db, projectId: string, tokenHash: string, now: number): Promise<SsoSetupLinkRow | null> {
  const row = await db
    .select({ id: verificationCodes.id, data: verificationCodes.data, expiresAt: verificationCodes.expiresAt })
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.codeHash, tokenHash),
        eq(verificationCodes.projectId, projectId),
        eq(verificationCodes.purpose, SSO_SETUP_LINK_PURPOSE),
        isNull(verificationCodes.usedAt),
        gt(verificationCodes.expiresAt, now),
      ),
    )
    .get();
  const teamId = row?.data?.team_id;
  return row && typeof teamId === "string" ? { id: row.id, teamId, expiresAt: row.expiresAt } : null;
}
