/**
 * The rows every authenticated request reads, in one D1 batch: the project, whether the sent key
 * is a valid key of it, the access token's user, and whether the token's session is still live. Prepared once per isolate (db/prepared.ts):
 * this is the hottest path of the API. A project row and a valid key found within the last few
 * seconds come from the isolate's memory instead (db/auth-row-cache.ts).
 */
import { and, eq, gt, sql } from "drizzle-orm";
import { authRowEpoch, cachedKeyIsValid, cachedProjectRow, rememberProjectRow, rememberValidKey } from "../auth-row-cache";
import type { Db } from "../client";
import { batchPrepared, type PreparedStatement, preparedOnce } from "../prepared";
import { sessions } from "../schema";
import { type KeyKind, validKeySetQuery } from "./key-sets";
import { type ProjectRow, projectByIdQuery } from "./projects";
import { type UserRecord, userRecordFrom, userRecordQueries } from "./users";

const projectId = sql.placeholder("projectId");
const project = preparedOnce((db) => projectByIdQuery(db, projectId));
const keyOf = {
  publishable: preparedOnce((db) => validKeySetQuery(db, projectId, "publishable", sql.placeholder("hash"), sql.placeholder("now"))),
  secret: preparedOnce((db) => validKeySetQuery(db, projectId, "secret", sql.placeholder("hash"), sql.placeholder("now"))),
  admin: preparedOnce((db) => validKeySetQuery(db, projectId, "admin", sql.placeholder("hash"), sql.placeholder("now"))),
} satisfies Record<KeyKind, unknown>;
const user = preparedOnce((db) => userRecordQueries(db, projectId, sql.placeholder("userId")));
// An ended session (signed out, revoked, expired) has no live row: its access token is refused at once.
const liveSession = preparedOnce((db) =>
  db
    .select({ createdAt: sessions.createdAt })
    .from(sessions)
    .where(
      and(
        eq(sessions.projectId, projectId),
        eq(sessions.id, sql.placeholder("sessionId")),
        eq(sessions.userId, sql.placeholder("userId")),
        gt(sessions.expiresAt, sql.placeholder("now")),
      ),
    )
    .limit(1),
);

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
  const values = { projectId: args.projectId, hash: args.key?.hash, now: args.now, userId: args.userId, sessionId: args.sessionId };
  // What the isolate remembers is not asked again (db/auth-row-cache.ts); the user always is.
  const knownProject = cachedProjectRow(args.projectId, args.now);
  const knownKey = args.key !== null && cachedKeyIsValid(args.projectId, args.key.kind, args.key.hash, args.now);
  const items: { query: PreparedStatement; values: typeof values }[] = [];
  if (!knownProject) items.push({ query: project(db), values });
  if (args.key && !knownKey) items.push({ query: keyOf[args.key.kind](db), values });
  // The session check rides in the same batch: no extra round trip (docs/security.md § Tokens).
  const askSession = Boolean(args.userId && args.sessionId);
  if (askSession) items.push({ query: liveSession(db), values });
  if (args.userId) for (const query of user(db)) items.push({ query, values });
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
  const session = askSession ? ((results[next++]?.[0] as { createdAt: number } | undefined) ?? null) : undefined;
  return { project: projectRow, keyValid, user: args.userId ? userRecordFrom(results.slice(next)) : null, session };
}
