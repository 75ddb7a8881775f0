/**
 * Data access for what the consent page decides about an authorization request (issue 30): read a
 * pending one, approve it (a code is issued) or deny it. Each decision is one compare-and-set on
 * `status = 'pending' AND expires_at > now`, so of two racing answers exactly one lands.
 * The rows themselves are made by /authorize and redeemed by /token (the flows' queries).
 */
import { and, eq, gt } from "drizzle-orm";
import type { Db } from "../client";
import { oauthAuthorizationRequests } from "../schema";

export type OAuthAuthorizationRequestRow = typeof oauthAuthorizationRequests.$inferSelect;

const pendingRow = (projectId: string, id: string, now: number) =>
  and(
    eq(oauthAuthorizationRequests.projectId, projectId),
    eq(oauthAuthorizationRequests.id, id),
    eq(oauthAuthorizationRequests.status, "pending"),
    gt(oauthAuthorizationRequests.expiresAt, now),
  );

/** The request while it waits on the consent page (pending and unexpired), else null. */
export async function findPendingAuthorizationRequest(
  db: Db,
  projectId: string,
  id: string,
  now: number,
): Promise<OAuthAuthorizationRequestRow | null> {
  return (
    (await db
      .select()
      .from(oauthAuthorizationRequests)
      .where(pendingRow(projectId, id, now))
      .get()) ?? null
  );
}

export type ApprovalFields = {
  userId: string;
  teamId: string | null;
  authTime: number;
  amr: string[] | null;
  acr: string | null;
  /** SHA-256 hex of the code handed to the app. */
  codeHash: string;
  /** When the code stops working (the row's new expires_at). */
  codeExpiresAt: number;
};

/**
 * Approves a pending request: the compare-and-set of the consent page. Answers the row it changed
 * (one element) or nothing when the request was no longer pending (another answer won, or it expired).
 */
export function approveAuthorizationRequestStatement(db: Db, projectId: string, id: string, now: number, f: ApprovalFields) {
  return db
    .update(oauthAuthorizationRequests)
    .set({
      status: "approved",
      userId: f.userId,
      teamId: f.teamId,
      authTime: f.authTime,
      amr: f.amr,
      acr: f.acr,
      codeHash: f.codeHash,
      expiresAt: f.codeExpiresAt,
    })
    .where(pendingRow(projectId, id, now))
    .returning({ id: oauthAuthorizationRequests.id });
}

/** Denies a pending request (compare-and-set); the row it changed, or nothing when it was no longer pending. */
export function denyAuthorizationRequestStatement(db: Db, projectId: string, id: string, now: number, userId: string | null) {
  return db
    .update(oauthAuthorizationRequests)
    .set({ status: "denied", userId })
    .where(pendingRow(projectId, id, now))
    .returning({ id: oauthAuthorizationRequests.id });
}

/**
 * Ends the approved, not yet redeemed codes of a user for an app (the user revoked it): a code
 * issued a moment before the revocation must not make a new grant after it.
 */
export function expireApprovedCodesStatement(db: Db, projectId: string, userId: string, clientId: string, now: number) {
  return db
    .update(oauthAuthorizationRequests)
    .set({ expiresAt: now })
    .where(
      and(
        eq(oauthAuthorizationRequests.projectId, projectId),
        eq(oauthAuthorizationRequests.userId, userId),
        eq(oauthAuthorizationRequests.clientId, clientId),
        eq(oauthAuthorizationRequests.status, "approved"),
        gt(oauthAuthorizationRequests.expiresAt, now),
      ),
    );
}
