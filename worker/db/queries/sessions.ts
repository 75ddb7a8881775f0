/** Data access for sessions (one row per sign-in; the refresh token is stored as SHA-256). */
import { and, asc, desc, eq, gt, notInArray, sql } from "drizzle-orm";
import type { Db } from "../client";
import { batchPrepared, preparedOnce, rawPreparedOnce } from "../prepared";
import { retiredRefreshTokens, sessions } from "../schema";
import { insertEventIfChangedStatement, type NewEvent } from "./events";
import { type UserRecord, userOAuthRefsQuery, userRecordFromRow, userRecordRowQuery } from "./users";

export type SessionRow = typeof sessions.$inferSelect;

/**
 * The project's session policy as times (services/auth/session-policy.ts): a session is live only while
 * last used after `idleSince` and created after `bornAfter` (-1: no such limit).
 */
export type SessionLimits = { idleSince: number; bornAfter: number };
export const NO_SESSION_LIMITS: SessionLimits = { idleSince: -1, bornAfter: -1 };

/** The session with this id if it is live (not signed out, revoked or expired) and the user's. */
export async function findLiveSession(
  db: Db,
  projectId: string,
  id: string,
  userId: string,
  now: number,
): Promise<{ createdAt: number } | null> {
  const row = await db
    .select({ createdAt: sessions.createdAt })
    .from(sessions)
    .where(and(eq(sessions.projectId, projectId), eq(sessions.id, id), eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
    .get();
  return row ?? null;
}

/**
 * Ends the user's oldest sessions so that `newId` and at most `keep - 1` others remain (newest
 * first by creation). Runs in the same batch as the new session's insert, so concurrent sign-ins
 * never leave more than `keep`, and the session a caller just created survives its own batch.
 */
export function trimSessionsStatement(db: Db, projectId: string, userId: string, newId: string, keep: number) {
  const others = and(eq(sessions.projectId, projectId), eq(sessions.userId, userId), sql`${sessions.id} != ${newId}`);
  const newest = db
    .select({ id: sessions.id })
    .from(sessions)
    .where(others)
    .orderBy(desc(sessions.createdAt), asc(sessions.id))
    .limit(Math.max(0, keep - 1));
  // The ids it ended: their Durable Objects stop answering outage refreshes (services/outage/).
  return db
    .delete(sessions)
    .where(and(others, notInArray(sessions.id, newest)))
    .returning({ id: sessions.id });
}

export function insertSessionStatement(db: Db, row: typeof sessions.$inferInsert) {
  return db.insert(sessions).values(row);
}

/**
 * Runs a prepared insert only if its id is still free: true for the one caller that created it.
 * Its event goes in the same batch and is written only by that caller.
 */
export async function insertSessionIfAbsent(
  db: Db,
  statement: ReturnType<typeof insertSessionStatement>,
  event: NewEvent,
  trim: ReturnType<typeof trimSessionsStatement> | null = null,
): Promise<boolean> {
  const [rows] = await db.batch([
    statement.onConflictDoNothing({ target: sessions.id }).returning({ id: sessions.id }),
    insertEventIfChangedStatement(db, event),
    // The project's maximum sessions per user, in the insert's transaction (after the event: it reads changes()).
    ...(trim ? [trim] : []),
  ]);
  return rows.length > 0;
}

/** The session whose current refresh token has this hash. */
export async function findSessionByTokenHash(db: Db, projectId: string, tokenHash: string): Promise<SessionRow | null> {
  const row = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.projectId, projectId), eq(sessions.refreshTokenHash, tokenHash)))
    .get();
  return row ?? null;
}

/** A rotated-out token: which session it belonged to, and when it was replaced. */
export async function findRetiredToken(
  db: Db,
  projectId: string,
  tokenHash: string,
): Promise<{ sessionId: string; retiredAt: number } | null> {
  const row = await db
    .select({ sessionId: retiredRefreshTokens.sessionId, retiredAt: retiredRefreshTokens.retiredAt })
    .from(retiredRefreshTokens)
    .where(and(eq(retiredRefreshTokens.projectId, projectId), eq(retiredRefreshTokens.tokenHash, tokenHash)))
    .get();
  return row ?? null;
}

export async function findSession(db: Db, projectId: string, id: string): Promise<SessionRow | null> {
  return (
    (await db
      .select()
      .from(sessions)
      .where(and(eq(sessions.projectId, projectId), eq(sessions.id, id)))
      .get()) ?? null
  );
}

/** What a refresh's UPDATE … RETURNING answers: the session, and what its outage mirror needs (services/outage/). */
const liveSessionFacts = {
  id: sessions.id,
  userId: sessions.userId,
  createdAt: sessions.createdAt,
  expiresAt: sessions.expiresAt,
  refreshTokenHash: sessions.refreshTokenHash,
  mirroredClaims: sessions.mirroredClaims,
};
export type LiveSessionFacts = {
  id: string;
  userId: string;
  createdAt: number;
  expiresAt: number;
  refreshTokenHash: string;
  mirroredClaims: string | null;
};

/**
 * Stamps use of a live (unexpired) session, found by id or by the hash of its refresh token;
 * null when none is live (a sign-out won, or it expired).
 */
export async function touchLiveSession(
  db: Db,
  projectId: string,
  by: { id: string } | { tokenHash: string },
  now: number,
  ipInfo: unknown,
  limits: SessionLimits = NO_SESSION_LIMITS,
): Promise<LiveSessionFacts | null> {
  const match = "id" in by ? eq(sessions.id, by.id) : eq(sessions.refreshTokenHash, by.tokenHash);
  const row = await db
    .update(sessions)
    .set({ lastUsedAt: now, lastIpInfo: ipInfo ?? sql`last_ip_info` })
    .where(
      and(
        eq(sessions.projectId, projectId),
        match,
        gt(sessions.expiresAt, now),
        gt(sessions.lastUsedAt, limits.idleSince),
        gt(sessions.createdAt, limits.bornAfter),
      ),
    )
    .returning(liveSessionFacts)
    .get();
  return row ?? null;
}

/**
 * A refresh without rotation in one D1 batch (one transaction): stamp the live session of this
 * token, and read its user. The UPDATE is the compare-and-set: a session signed out or expired
 * matches nothing, and then the user is not answered either.
 */
export async function touchSessionReadingUser(
  db: Db,
  projectId: string,
  tokenHash: string,
  now: number,
  ipInfo: unknown,
  limits: SessionLimits = NO_SESSION_LIMITS,
): Promise<{ session: LiveSessionFacts; record: UserRecord } | null> {
  const values = { projectId, tokenHash, now, ...limits, ipInfo: ipInfo == null ? null : JSON.stringify(ipInfo) };
  const [touched, userRows, oauthRows] = (await batchPrepared(db, [
    { query: touchQuery(db), values },
    { query: userOfSessionQuery(db), values },
    { query: oauthRefsOfSessionQuery(db), values },
  ])) as unknown[][];
  const session = touched?.[0] as LiveSessionFacts | undefined;
  const record = userRecordFromRow(
    (userRows as ReturnType<ReturnType<typeof userRecordRowQuery>["decode"]>[] | undefined)?.[0],
    oauthRows ?? [],
  );
  return session && record ? { session, record } : null;
}

// The statements of touchSessionReadingUser, prepared once (the refresh hot path): the stamp, then the session's
// user record as one joined row (decoded without drizzle's mapping, db/prepared.ts rawPreparedOnce) and its OAuth refs.
const placeholders = { projectId: sql.placeholder("projectId"), tokenHash: sql.placeholder("tokenHash"), now: sql.placeholder("now") };
const liveByToken = and(
  eq(sessions.projectId, placeholders.projectId),
  eq(sessions.refreshTokenHash, placeholders.tokenHash),
  gt(sessions.expiresAt, placeholders.now),
  // The project's idle timeout and absolute lifetime (-1: none).
  gt(sessions.lastUsedAt, sql.placeholder("idleSince")),
  gt(sessions.createdAt, sql.placeholder("bornAfter")),
);
// Read after the stamp in the same batch: the stamped session is still live, an ended one names nobody.
const userOfSession = sql`SELECT ${sessions.userId} FROM ${sessions} WHERE ${liveByToken}`;
const touchQuery = preparedOnce((db) =>
  db
    .update(sessions)
    // ipInfo arrives as JSON text (or null: keep the last one).
    .set({ lastUsedAt: sql`${placeholders.now}`, lastIpInfo: sql`coalesce(${sql.placeholder("ipInfo")}, last_ip_info)` })
    .where(liveByToken)
    .returning(liveSessionFacts),
);
const userOfSessionQuery = rawPreparedOnce((db) => userRecordRowQuery(db, placeholders.projectId, userOfSession));
const oauthRefsOfSessionQuery = preparedOnce((db) => userOAuthRefsQuery(db, userOfSession));

/**
 * Replaces the refresh token only if `oldHash` is still current (compare-and-set), retiring the old
 * one in the same D1 batch (one transaction): a racing refresh that loses the swap always finds the
 * retired row, and a racing sign-out (delete) leaves nothing to retire, so no foreign-key failure.
 */
export async function rotateSessionToken(
  db: Db,
  session: SessionRow,
  oldHash: string,
  newHash: string,
  now: number,
): Promise<SessionRow | null> {
  const current = and(eq(sessions.id, session.id), eq(sessions.refreshTokenHash, oldHash), gt(sessions.expiresAt, now));
  const [, rows] = await db.batch([
    db
      .insert(retiredRefreshTokens)
      .select(
        db
          .select({
            tokenHash: sql<string>`${oldHash}`.as("token_hash"),
            sessionId: sessions.id,
            projectId: sessions.projectId,
            retiredAt: sql<number>`${now}`.as("retired_at"),
          })
          .from(sessions)
          .where(current),
      )
      .onConflictDoNothing(),
    db.update(sessions).set({ refreshTokenHash: newHash, lastUsedAt: now }).where(current).returning(),
  ]);
  return rows[0] ?? null;
}

export function deleteSessionStatement(db: Db, projectId: string, id: string) {
  return db
    .delete(sessions)
    .where(and(eq(sessions.projectId, projectId), eq(sessions.id, id)))
    .returning({ id: sessions.id });
}

export async function deleteSession(db: Db, projectId: string, id: string): Promise<boolean> {
  return (await deleteSessionStatement(db, projectId, id)).length > 0;
}

/** Deletes every session of the user but `keepId` in one statement; the ids it deleted. */
export async function deleteSessionsOfUser(db: Db, projectId: string, userId: string, keepId: string | null): Promise<string[]> {
  const ofUser = and(eq(sessions.projectId, projectId), eq(sessions.userId, userId));
  const rows = await db
    .delete(sessions)
    .where(keepId ? and(ofUser, sql`${sessions.id} != ${keepId}`) : ofUser)
    .returning({ id: sessions.id });
  return rows.map((r) => r.id);
}

/**
 * Deletes every session of the user in the project, unexecuted, for the caller's batch (SCIM
 * deprovisioning: with the membership removal, in one transaction); a statement after it may read changes().
 */
export function deleteSessionsOfUserStatement(db: Db, projectId: string, userId: string) {
  return db.delete(sessions).where(and(eq(sessions.projectId, projectId), eq(sessions.userId, userId)));
}

/**
 * Ends every live session of one project: a single DELETE over the (project_id, expires_at) index,
 * whatever the number of sessions; no row comes back to the worker, and the retired refresh tokens
 * go with their sessions by the foreign key's cascade. Only this project's rows match: another
 * project's sessions (the internal project's, the console owners', among them) are never touched.
 * For the caller's batch; its result's `meta.changes` is how many sessions ended.
 */
export function deleteLiveSessionsOfProjectStatement(db: Db, projectId: string, now: number) {
  return db.delete(sessions).where(and(eq(sessions.projectId, projectId), gt(sessions.expiresAt, now)));
}

export async function deleteOtherSessionsOfUser(db: Db, userId: string, keepId: string | null): Promise<void> {
  await db
    .delete(sessions)
    .where(keepId ? and(eq(sessions.userId, userId), sql`${sessions.id} != ${keepId}`) : eq(sessions.userId, userId));
}

export async function listSessionsOfUser(db: Db, projectId: string, userId: string, now: number): Promise<SessionRow[]> {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.projectId, projectId), eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.createdAt))
    .all();
}

/** Records the hash of the claims the session's Durable Object now mirrors (null: mirror again at the next refresh). */
export async function setMirroredClaims(db: Db, projectId: string, id: string, hash: string | null): Promise<void> {
  await db
    .update(sessions)
    .set({ mirroredClaims: hash })
    .where(and(eq(sessions.projectId, projectId), eq(sessions.id, id)));
}

/** A use stamped while D1 was away (services/outage/): never moves last_used_at back. */
export async function stampSessionUse(db: Db, projectId: string, id: string, at: number, ipInfo: unknown): Promise<void> {
  await db
    .update(sessions)
    .set({ lastUsedAt: sql`max(${sessions.lastUsedAt}, ${at})`, lastIpInfo: ipInfo ?? sql`last_ip_info` })
    .where(and(eq(sessions.projectId, projectId), eq(sessions.id, id)));
}
