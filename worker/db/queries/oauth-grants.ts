/**
 * Data access for the OpenID provider's grants (one redeemed authorization code and the refresh-token
 * family it started; issue 30): the conditional insert of the redemption's batch, lookups, the
 * revocation compare-and-set and the last-use stamp.
 */
import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { Db } from "../client";
import { oauthAuthorizationRequests, oauthGrants, users } from "../schema";

export type OAuthGrantRow = typeof oauthGrants.$inferSelect;
export type NewOAuthGrantRow = typeof oauthGrants.$inferInsert;

/** Why a grant was revoked (the `revoked_reason` column). */
export type GrantRevocationReason = "user" | "client" | "reuse" | "code_reuse" | "admin";

/**
 * The grant of a redemption, inserted only when the request row now names it (the redemption's
 * compare-and-set, earlier in the same batch, won) and its user still exists: a lost race or a user
 * deleted meanwhile inserts nothing, rather than failing the batch on the foreign key.
 */
export function insertGrantOfRedemptionStatement(db: Db, requestId: string, row: NewOAuthGrantRow) {
  const v = <T>(value: T, name: string) => sql<T>`${value ?? null}`.as(name);
  const amr = row.amr === undefined || row.amr === null ? null : JSON.stringify(row.amr);
  const won: SQL = sql`EXISTS (SELECT 1 FROM ${oauthAuthorizationRequests} WHERE ${oauthAuthorizationRequests.id} = ${requestId} AND ${oauthAuthorizationRequests.grantId} = ${row.id} AND ${oauthAuthorizationRequests.status} = 'redeemed') AND EXISTS (SELECT 1 FROM ${users} WHERE ${users.id} = ${row.userId})`;
  return db.insert(oauthGrants).select(
    db
      .select({
        id: v(row.id, "id"),
        projectId: v(row.projectId, "project_id"),
        clientId: v(row.clientId, "client_id"),
        userId: v(row.userId, "user_id"),
        teamId: v(row.teamId, "team_id"),
        scope: v(row.scope, "scope"),
        resource: v(row.resource, "resource"),
        authTime: v(row.authTime, "auth_time"),
        amr: v(amr, "amr"),
        acr: v(row.acr, "acr"),
        createdAt: v(row.createdAt, "created_at"),
        lastUsedAt: v(row.lastUsedAt, "last_used_at"),
        expiresAt: v(row.expiresAt, "expires_at"),
        revokedAt: v(null, "revoked_at"),
        revokedReason: v(null, "revoked_reason"),
      })
      .from(sql`(SELECT 1) AS one`)
      .where(won),
  );
}

/** One grant of the project, revoked or not. */
export async function findGrant(db: Db, projectId: string, grantId: string): Promise<OAuthGrantRow | null> {
  const rows = await db
    .select()
    .from(oauthGrants)
    .where(and(eq(oauthGrants.projectId, projectId), eq(oauthGrants.id, grantId)))
    .limit(1);
  return rows[0] ?? null;
}

/** Revokes a live grant (compare-and-set on revoked_at: a second revocation changes nothing, so its event is not written twice). */
export function revokeGrantStatement(db: Db, projectId: string, grantId: string, now: number, reason: GrantRevocationReason) {
  return db
    .update(oauthGrants)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(eq(oauthGrants.projectId, projectId), eq(oauthGrants.id, grantId), isNull(oauthGrants.revokedAt)));
}

/** Stamps the grant's last use (a refresh). */
export function touchGrantStatement(db: Db, grantId: string, now: number) {
  return db.update(oauthGrants).set({ lastUsedAt: now }).where(eq(oauthGrants.id, grantId));
}
