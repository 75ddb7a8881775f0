/** The health check's round trip to the database. */
import { sql } from "drizzle-orm";
import type { Db } from "../client";

export async function pingDatabase(db: Db): Promise<void> {
  await db.get(sql`SELECT 1`);
}
