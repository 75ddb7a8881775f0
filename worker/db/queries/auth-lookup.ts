/**
 * The rows every authenticated request reads, in one D1 batch: the project, whether the sent key
 * is a valid key of it, and the access token's user. Prepared once per isolate (db/prepared.ts):
 * this is the hottest path of the API.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../client";
import { batchPrepared, preparedOnce } from "../prepared";
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

export type AuthRows = { project: ProjectRow | null; keyValid: boolean | null; user: UserRecord | null };

export async function lookupAuthRows(
  db: Db,
  args: { projectId: string; key: { kind: KeyKind; hash: string } | null; userId: string | null; now: number },
): Promise<AuthRows> {
  const values = { projectId: args.projectId, hash: args.key?.hash, now: args.now, userId: args.userId };
  const items = [{ query: project(db), values }];
  if (args.key) items.push({ query: keyOf[args.key.kind](db), values });
  if (args.userId) for (const query of user(db)) items.push({ query, values });
  const results = (await batchPrepared(db, items)) as unknown[][];
  const userResults = results.slice(args.key ? 2 : 1);
  return {
    project: (results[0]?.[0] as ProjectRow | undefined) ?? null,
    keyValid: args.key ? (results[1]?.length ?? 0) > 0 : null,
    user: args.userId ? userRecordFrom(userResults) : null,
  };
}
