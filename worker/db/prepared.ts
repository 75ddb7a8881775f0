/**
 * Queries built once per isolate, bound per request. Building a drizzle query (walking its SQL
 * chunks) costs more CPU than anything else on the hot read path (/users/me was ~0.5 ms of it), so
 * the statements every request runs are prepared once with placeholders and only bound after.
 *
 * `batchPrepared` makes the same calls drizzle's own D1 batch makes (drizzle-orm 0.45,
 * d1/session.js `batch`): bind each prepared statement, run them as one D1 batch (one
 * transaction), map each result with its query's own row mapper.
 */
import { fillPlaceholders, getTableColumns, type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
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

/** A table's columns under unique aliases (`prefix` + column name) for a joined select, and the decoder back to its row. */
export type AliasedColumns<Row> = {
  fields: Record<string, SQL.Aliased>;
  /** The row as drizzle maps it (each column's own decoder; null stays null), or null when every column is null (no match of a left join). */
  decode(row: Record<string, unknown>): Row | null;
};

export function aliasedColumns<T extends SQLiteTable>(table: T, prefix: string): AliasedColumns<T["$inferSelect"]> {
  const columns = Object.entries(getTableColumns(table)).map(([key, column]) => ({ key, column, alias: `${prefix}${column.name}` }));
  return {
    fields: Object.fromEntries(columns.map(({ alias, column }) => [alias, sql`${column}`.as(alias)])),
    decode(row) {
      const out: Record<string, unknown> = {};
      let matched = false;
      for (const { key, column, alias } of columns) {
        const value = row[alias];
        if (value === null || value === undefined) out[key] = null;
        else {
          matched = true;
          out[key] = column.mapFromDriverValue(value);
        }
      }
      return matched ? (out as T["$inferSelect"]) : null;
    },
  };
}

/**
 * A select run as a raw D1 statement, prepared once per database client and isolate, in the shape batchPrepared takes.
 * Its rows come back from D1 as objects keyed by column name, and `decode` reads them directly: no drizzle result
 * mapping (which first turns each object back into an array, and so cannot tell apart two joined tables' same-named
 * columns; aliasedColumns gives each a name of its own).
 */
export function rawPreparedOnce<Row>(
  build: (db: Db) => { query: { toSQL(): { sql: string; params: unknown[] } }; decode(row: Record<string, unknown>): Row },
): (db: Db) => PreparedStatement {
  const cache = new WeakMap<Db, PreparedStatement>();
  return (db: Db) => {
    let prepared = cache.get(db);
    if (!prepared) {
      const { query, decode } = build(db);
      const compiled = query.toSQL();
      prepared = {
        stmt: db.$client.prepare(compiled.sql),
        getQuery: () => compiled,
        mapResult: (response) => ((response as D1Result<Record<string, unknown>>).results ?? []).map(decode),
      };
      cache.set(db, prepared);
    }
    return prepared;
  };
}
