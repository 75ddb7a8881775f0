/**
 * Data access for the OpenID provider's refresh tokens (SHA-256 hashes; issue 30): the first token of
 * a grant, rotation (one compare-and-set on used_at) and the lookup that tells a replay.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../client";
import { oauthGrants, oauthRefreshTokens } from "../schema";

export type OAuthRefreshTokenRow = typeof oauthRefreshTokens.$inferSelect;
type NewRow = { tokenHash: string; grantId: string; projectId: string; createdAt: number };

function insertWhere(db: Db, row: NewRow, condition: ReturnType<typeof sql>) {
  const v = <T>(value: T, name: string) => sql<T>`${value}`.as(name);
  return db.insert(oauthRefreshTokens).select(
    db
      .select({
        tokenHash: v(row.tokenHash, "token_hash"),
        grantId: v(row.grantId, "grant_id"),
        projectId: v(row.projectId, "project_id"),
        createdAt: v(row.createdAt, "created_at"),
        usedAt: sql<null>`NULL`.as("used_at"),
      })
      .from(sql`(SELECT 1) AS one`)
      .where(condition),
  );
}

/** A grant's first refresh token, inserted only if the grant exists (the redemption's batch inserts it conditionally). */
export function insertFirstRefreshTokenStatement(db: Db, row: NewRow) {
  return insertWhere(db, row, sql`EXISTS (SELECT 1 FROM ${oauthGrants} WHERE ${oauthGrants.id} = ${row.grantId})`);
}

/** The rotated-in token, inserted only if the statement right before it in the batch (the rotation) changed a row. */
export function insertRotatedRefreshTokenStatement(db: Db, row: NewRow) {
  return insertWhere(db, row, sql`changes() > 0`);
}

/** The token with this hash, used or not (a used one presented again is a replay). */
export async function findRefreshToken(db: Db, projectId: string, tokenHash: string): Promise<OAuthRefreshTokenRow | null> {
  const rows = await db
    .select()
    .from(oauthRefreshTokens)
    .where(and(eq(oauthRefreshTokens.projectId, projectId), eq(oauthRefreshTokens.tokenHash, tokenHash)))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * Rotation's compare-and-set: marks the token used only while it is unused and its grant is live
 * (not revoked, not expired). Of two concurrent refreshes with one token exactly one gets the row back.
 */
export function spendRefreshTokenStatement(db: Db, input: { projectId: string; tokenHash: string; now: number }) {
  return db
    .update(oauthRefreshTokens)
    .set({ usedAt: input.now })
    .where(
      and(
        eq(oauthRefreshTokens.projectId, input.projectId),
        eq(oauthRefreshTokens.tokenHash, input.tokenHash),
        isNull(oauthRefreshTokens.usedAt),
        sql`${oauthRefreshTokens.grantId} IN (SELECT ${oauthGrants.id} FROM ${oauthGrants} WHERE ${oauthGrants.revokedAt} IS NULL AND ${oauthGrants.expiresAt} > ${input.now})`,
      ),
    )
    .returning({ grantId: oauthRefreshTokens.grantId });
}
