/** The drizzle client over D1: the `Db` type every query takes, and its one constructor. */
import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

/** The drizzle client, plus the raw D1 binding for the few guarded statements the builder cannot express. */
export type Db = DrizzleD1Database<typeof schema> & { $client: D1Database };

/** A drizzle client (with the schema, for `db.query.*`) over the D1 binding. */
export function createDb(d1: D1Database): Db {
  return Object.assign(drizzle(d1, { schema }), { $client: d1 });
}
