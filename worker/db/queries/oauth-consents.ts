/**
 * Data access for what users let third-party apps do (issue 30): one consent row per (user, app),
 * remembered when the user approves on the consent page, listed and revoked in account settings.
 * Revoking also revokes the user's grants of that app (the refresh-token families it holds).
 */
import { and, asc, eq, isNull, max, sql } from "drizzle-orm";
import type { Db } from "../client";
import { oauthAuthorizationRequests, oauthConsents, oauthGrants } from "../schema";

export type OAuthConsentRow = typeof oauthConsents.$inferSelect;

const consentOf = (projectId: string, userId: string, clientId: string) =>
  and(eq(oauthConsents.projectId, projectId), eq(oauthConsents.userId, userId), eq(oauthConsents.clientId, clientId));

/** The user's consent for one app, or null. */
export async function findOAuthConsent(db: Db, projectId: string, userId: string, clientId: string): Promise<OAuthConsentRow | null> {
  return (
    (await db
      .select()
      .from(oauthConsents)
      .where(consentOf(projectId, userId, clientId))
      .get()) ?? null
  );
}

/** The user's consents, oldest first, each with the last use of its grants (null: no token was ever issued). */
export function listOAuthConsentsOfUser(db: Db, projectId: string, userId: string, limit: number) {
  const lastUse = db
    .select({ clientId: oauthGrants.clientId, lastUsedAt: max(oauthGrants.lastUsedAt).as("last_used_at") })
    .from(oauthGrants)
    .where(and(eq(oauthGrants.projectId, projectId), eq(oauthGrants.userId, userId)))
    .groupBy(oauthGrants.clientId)
    .as("last_use");
  return db
    .select({ consent: oauthConsents, lastUsedAt: lastUse.lastUsedAt })
    .from(oauthConsents)
    .leftJoin(lastUse, eq(lastUse.clientId, oauthConsents.clientId))
    .where(and(eq(oauthConsents.projectId, projectId), eq(oauthConsents.userId, userId)))
    .orderBy(asc(oauthConsents.createdAt), asc(oauthConsents.clientId))
    .limit(limit)
    .all();
}

export type RememberedConsent = {
  projectId: string;
  userId: string;
  clientId: string;
  /** Space-separated, sorted: the union of what was consented before and now. */
  scope: string;
  teamId: string | null;
  now: number;
  /** The consent's scope as read before (null: there was none); a row changed since is left alone. */
  previousScope: string | null;
  /** Written only if this approval's code landed (its compare-and-set won). */
  approval: { requestId: string; codeHash: string };
};

/**
 * Creates or widens the consent, in the approval's batch: only if the approval landed, and only if
 * the row still holds what was read (a concurrent approval's wider scope is never narrowed back).
 * Answers the row it wrote, or nothing.
 */
export function rememberOAuthConsentStatement(db: Db, c: RememberedConsent) {
  const landed = sql`EXISTS (SELECT 1 FROM ${oauthAuthorizationRequests} WHERE ${oauthAuthorizationRequests.id} = ${c.approval.requestId} AND ${oauthAuthorizationRequests.codeHash} = ${c.approval.codeHash})`;
  // Columns in the table's order (project, user, client, scope, team, created, updated).
  const values = sql`SELECT ${c.projectId}, ${c.userId}, ${c.clientId}, ${c.scope}, ${c.teamId}, ${c.now}, ${c.now} WHERE ${landed}`;
  return db
    .insert(oauthConsents)
    .select(values)
    .onConflictDoUpdate({
      target: [oauthConsents.projectId, oauthConsents.userId, oauthConsents.clientId],
      set: { scope: c.scope, teamId: c.teamId, updatedAt: c.now },
      setWhere: c.previousScope === null ? sql`0` : eq(oauthConsents.scope, c.previousScope),
    })
    .returning({ scope: oauthConsents.scope });
}

/** Deletes the consent; answers the row it deleted, or nothing. */
export function deleteOAuthConsentStatement(db: Db, projectId: string, userId: string, clientId: string) {
  return db
    .delete(oauthConsents)
    .where(consentOf(projectId, userId, clientId))
    .returning({ clientId: oauthConsents.clientId });
}

/** Revokes every live grant of the user for the app (their tokens stop working at introspection and refresh). */
export function revokeGrantsOfConsentStatement(db: Db, projectId: string, userId: string, clientId: string, now: number) {
  return db
    .update(oauthGrants)
    .set({ revokedAt: now, revokedReason: "user" })
    .where(
      and(
        eq(oauthGrants.projectId, projectId),
        eq(oauthGrants.userId, userId),
        eq(oauthGrants.clientId, clientId),
        isNull(oauthGrants.revokedAt),
      ),
    );
}
