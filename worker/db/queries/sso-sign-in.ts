/**
 * The SSO sign-in's data verbs (issue 31, FLOW): finding the identity a connection's IdP speaks for,
 * claiming a SCIM-provisioned identity at its first sign-in, linking a new identity, and routing an
 * email to its team's connection.
 */
import { and, asc, eq, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../client";
import { ssoConnections, ssoIdentities } from "../schema";
import type { SsoConnectionRow } from "./sso-connections";

export type SsoIdentityRow = typeof ssoIdentities.$inferSelect;

/** The identity of a connection with this subject (NameID / `sub`), or null. */
export async function findIdentityBySubject(db: Db, connectionId: string, subject: string): Promise<SsoIdentityRow | null> {
  const row = await db
    .select()
    .from(ssoIdentities)
    .where(and(eq(ssoIdentities.connectionId, connectionId), eq(ssoIdentities.subject, subject)))
    .get();
  return row ?? null;
}

/** The identity of a connection that belongs to this user (at most one: a unique index), or null. */
export async function findIdentityOfUser(db: Db, connectionId: string, userId: string): Promise<SsoIdentityRow | null> {
  const row = await db
    .select()
    .from(ssoIdentities)
    .where(and(eq(ssoIdentities.connectionId, connectionId), eq(ssoIdentities.userId, userId)))
    .get();
  return row ?? null;
}

/**
 * A SCIM-provisioned identity not signed in yet (subject null) whose userName is one of `names`
 * (compared case-insensitively: IdPs differ in the case of the same address).
 */
export async function findUnclaimedIdentity(db: Db, connectionId: string, names: string[]): Promise<SsoIdentityRow | null> {
  const lowered = [...new Set(names.map((n) => n.toLowerCase()))];
  if (lowered.length === 0) return null;
  const row = await db
    .select()
    .from(ssoIdentities)
    .where(
      and(
        eq(ssoIdentities.connectionId, connectionId),
        isNull(ssoIdentities.subject),
        or(...lowered.map((name) => sql`lower(${ssoIdentities.userName}) = ${name}`)),
      ),
    )
    .get();
  return row ?? null;
}

/** Sets the subject of an unclaimed identity (compare-and-set: only while it is still null). True when this call set it. */
export async function claimIdentitySubject(db: Db, identityId: string, subject: string, now: number): Promise<boolean> {
  const rows = await db
    .update(ssoIdentities)
    .set({ subject, lastSignInAt: now, updatedAt: now })
    .where(and(eq(ssoIdentities.id, identityId), isNull(ssoIdentities.subject)))
    .returning({ id: ssoIdentities.id });
  return rows.length > 0;
}

/** The identity row a first SSO sign-in links (for the batch that creates or links the user). */
export function insertIdentityStatement(db: Db, row: typeof ssoIdentities.$inferInsert) {
  return db.insert(ssoIdentities).values(row);
}

/** Stamps an identity's sign-in. */
export async function touchIdentitySignIn(db: Db, identityId: string, now: number): Promise<void> {
  await db.update(ssoIdentities).set({ lastSignInAt: now }).where(eq(ssoIdentities.id, identityId));
}

/** A team's first enabled connection (oldest first), or null. */
export async function findFirstEnabledTeamConnection(db: Db, projectId: string, teamId: string): Promise<SsoConnectionRow | null> {
  const row = await db
    .select()
    .from(ssoConnections)
    .where(and(eq(ssoConnections.projectId, projectId), eq(ssoConnections.teamId, teamId), eq(ssoConnections.enabled, true)))
    .orderBy(asc(ssoConnections.createdAt), asc(ssoConnections.id))
    .get();
  return row ?? null;
}
