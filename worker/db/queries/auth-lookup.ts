/**
 * The rows every authenticated request reads, in one D1 batch: the project, whether the sent key
 * is a valid key of it, the access token's user, and whether the token's session is still live. Prepared once per isolate (db/prepared.ts):
 * this is the hottest path of the API. A project row and a valid key found within the last few
 * seconds come from the isolate's memory instead (db/auth-row-cache.ts).
 */
import { and, eq, gt, sql } from "drizzle-orm";
import { authRowEpoch, cachedKeyIsValid, cachedProjectRow, rememberProjectRow, rememberValidKey } from "../auth-row-cache";
import type { Db } from "../client";
import { batchPrepared, type PreparedStatement, preparedOnce, rawPreparedOnce } from "../prepared";
import { sessions, users } from "../schema";
import { type KeyKind, validKeySetQuery } from "./key-sets";
import { type ProjectRow, projectByIdQuery } from "./projects";
import { type UserRecord, userOAuthRefsQuery, userRecordFromRow, userRecordRowQuery } from "./users";

const projectId = sql.placeholder("projectId");
const project = preparedOnce((db) => projectByIdQuery(db, projectId));
const keyOf = {
  publishable: preparedOnce((db) => validKeySetQuery(db, projectId, "publishable", sql.placeholder("hash"), sql.placeholder("now"))),
  secret: preparedOnce((db) => validKeySetQuery(db, projectId, "secret", sql.placeholder("hash"), sql.placeholder("now"))),
  admin: preparedOnce((db) => validKeySetQuery(db, projectId, "admin", sql.placeholder("hash"), sql.placeholder("now"))),
} satisfies Record<KeyKind, unknown>;
const userId = sql.placeholder("userId");
// The user record (user, primary email, selected team) and the token's live session in one joined row, then the
// user's OAuth accounts: two statements, the first decoded without drizzle's mapping (db/prepared.ts rawPreparedOnce).
// An ended session (signed out, revoked, expired) has no live row: its access token is refused at once.
const userAndSession = rawPreparedOnce((db) =>
  userRecordRowQuery(db, projectId, userId, {
    s_created_at: sql`(${db
      .select({ createdAt: sessions.createdAt })
      .from(sessions)
      .where(
        and(
          eq(sessions.projectId, projectId),
          eq(sessions.id, sql.placeholder("sessionId")),
          eq(sessions.userId, users.id),
          gt(sessions.expiresAt, sql.placeholder("now")),
        ),
      )
      .limit(1)})`.as("s_created_at"),
  }),
);
const oauthRefs = preparedOnce((db) => userOAuthRefsQuery(db, userId));

/** `session`: the access token's live session (its creation time), null when it has ended; undefined when no session was asked. */
export type AuthRows = {
  project: ProjectRow | null;
  keyValid: boolean | null;
  user: UserRecord | null;
  session?: { createdAt: number } | null;
};

export async function lookupAuthRows(
  db: Db,
  args: { projectId: string; key: { kind: KeyKind; hash: string } | null; userId: string | null; sessionId?: string | null; now: number },
): Promise<AuthRows> {
  const values = {
    projectId: args.projectId,
    hash: args.key?.hash,
    now: args.now,
    userId: args.userId,
    // Bound in the user's statement even when no session is asked (then it matches none and is not read).
    sessionId: args.sessionId ?? null,
  };
  // What the isolate remembers is not asked again (db/auth-row-cache.ts); the user always is.
  const knownProject = cachedProjectRow(args.projectId, args.now);
  const knownKey = args.key !== null && cachedKeyIsValid(args.projectId, args.key.kind, args.key.hash, args.now);
  const items: { query: PreparedStatement; values: typeof values }[] = [];
  if (!knownProject) items.push({ query: project(db), values });
  if (args.key && !knownKey) items.push({ query: keyOf[args.key.kind](db), values });
  // The session check rides in the user's statement: no extra round trip (docs/security.md § Tokens).
  if (args.userId) items.push({ query: userAndSession(db), values }, { query: oauthRefs(db), values });
  const readAt = authRowEpoch();
  const results = items.length > 0 ? ((await batchPrepared(db, items)) as unknown[][]) : [];
  let next = 0;
  const projectRow = knownProject ?? (results[next++]?.[0] as ProjectRow | undefined) ?? null;
  if (projectRow && !knownProject) rememberProjectRow(projectRow, args.now, readAt);
  let keyValid: boolean | null = null;
  if (args.key) {
    keyValid = knownKey || (results[next++]?.length ?? 0) > 0;
    if (keyValid && !knownKey) rememberValidKey(args.projectId, args.key.kind, args.key.hash, args.now, readAt);
  }
  if (!args.userId) return { project: projectRow, keyValid, user: null, session: undefined };
  const row = results[next] as ReturnType<ReturnType<typeof userRecordRowQuery>["decode"]>[] | undefined;
  const user = userRecordFromRow(row?.[0], results[next + 1] ?? []);
  const createdAt = row?.[0]?.row.s_created_at;
  const session = args.sessionId
    ? createdAt == null
      ? null
      : { createdAt: sessions.createdAt.mapFromDriverValue(createdAt) as number }
    : undefined;
  return { project: projectRow, keyValid, user, session };
}
