/**
 * Queries built once per isolate, bound per request. Building a drizzle query (walking its SQL
 * chunks) costs more CPU than anything else on the hot read path (/users/me was ~0.5 ms of it), so
 * the statements every request runs are prepared once with placeholders and only bound after.
 *
 * `batchPrepared` makes the same calls drizzle's own D1 batch makes (drizzle-orm 0.45,
 * d1/session.js `batch`): bind each prepared statement, run them as one D1 batch (one
 * transaction), map each result with its query's own row mapper.
 */
import { fillPlaceholders } from "drizzle-orm";
import type { Db } from "./client";

/** What a prepared drizzle D1 select or update carries (its statement, SQL params and row mapper). */
export type PreparedStatement = {
  stmt: D1PreparedStatement;
  getQuery(): { sql: string; params: unknown[] };
  mapResult(response: unknown, isFromBatch: boolean): unknown;
};

type Preparable = { prepare(): unknown };

/** A query (or a tuple of queries) prepared once per database client and isolate. */
export function preparedOnce<T extends Preparable | readonly Preparable[]>(
  build: (db: Db) => T,
): (db: Db) => T extends readonly Preparable[] ? PreparedStatement[] : PreparedStatement {
  const cache = new WeakMap<Db, PreparedStatement | PreparedStatement[]>();
  return ((db: Db) => {
    let prepared = cache.get(db);
    if (!prepared) {
      const built = build(db);
      prepared = Array.isArray(built)
        ? built.map((q: Preparable) => q.prepare() as PreparedStatement)
        : ((built as Preparable).prepare() as PreparedStatement);
      cache.set(db, prepared);
    }
    return prepared;
  }) as never;
}

/** Runs prepared statements with their placeholder values as one D1 batch; each result as drizzle maps it (rows). */
export async function batchPrepared(
  db: Db,
  items: readonly { query: PreparedStatement; values: Record<string, unknown> }[],
): Promise<unknown[]> {
  const bound = items.map(({ query, values }) => query.stmt.bind(...fillPlaceholders(query.getQuery().params, values)));
  const results = await db.$client.batch(bound);
  return results.map((result, i) => items[i]!.query.mapResult(result, true));
}
