/**
 * Data access for the OpenID provider's authorization requests (issue 30): the pending row /authorize
 * writes, the code's redemption (one compare-and-set), and the daily clean-up. The consent page's
 * approve and deny (the consent helper's) write the same rows through their own statements.
 */
import { and, eq, lte, sql } from "drizzle-orm";
import type { Db } from "../client";
import { oauthAuthorizationRequests } from "../schema";

export type OAuthAuthorizationRequestRow = typeof oauthAuthorizationRequests.$inferSelect;
export type NewOAuthAuthorizationRequestRow = typeof oauthAuthorizationRequests.$inferInsert;

/** Stores a validated request as "pending" (its id is new and random, so this never conflicts). */
export async function insertAuthorizationRequest(db: Db, row: NewOAuthAuthorizationRequestRow): Promise<void> {
  await db.insert(oauthAuthorizationRequests).values(row);
}

/** The request whose code hashes to `codeHash`, in any status (a redeemed one tells a replayed code). */
export async function findAuthorizationRequestByCode(
  db: Db,
  projectId: string,
  codeHash: string,
): Promise<OAuthAuthorizationRequestRow | null> {
  const rows = await db
    .select()
    .from(oauthAuthorizationRequests)
    .where(and(eq(oauthAuthorizationRequests.projectId, projectId), eq(oauthAuthorizationRequests.codeHash, codeHash)))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * The code's one redemption: approved → redeemed with the new grant's id, only while it is approved
 * and unexpired (compare-and-set: of two concurrent redemptions exactly one gets the row back).
 */
export function redeemAuthorizationCodeStatement(db: Db, input: { projectId: string; codeHash: string; grantId: string; now: number }) {
  return db
    .update(oauthAuthorizationRequests)
    .set({ status: "redeemed", grantId: input.grantId })
    .where(
      and(
        eq(oauthAuthorizationRequests.projectId, input.projectId),
        eq(oauthAuthorizationRequests.codeHash, input.codeHash),
        eq(oauthAuthorizationRequests.status, "approved"),
        sql`${oauthAuthorizationRequests.expiresAt} > ${input.now}`,
      ),
    )
    .returning({ id: oauthAuthorizationRequests.id });
}

/** The daily clean-up: every request past its expiry (pending, approved, redeemed or denied); answers how many went. */
export async function deleteExpiredAuthorizationRequests(db: Db, now: number): Promise<number> {
  const result = await db.delete(oauthAuthorizationRequests).where(lte(oauthAuthorizationRequests.expiresAt, now)).run();
  return result.meta.changes ?? 0;
}
