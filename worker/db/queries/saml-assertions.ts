/**
 * Data access for used SAML assertions (issue 31): an assertion ID is recorded once per connection with
 * INSERT … ON CONFLICT DO NOTHING, so a replayed assertion finds its ID taken even when both posts arrive
 * at once. The daily cron deletes the rows whose assertion has expired (it would be refused by time anyway).
 */
import { lte } from "drizzle-orm";
import type { Db } from "../client";
import { samlUsedAssertions } from "../schema";

/** Records the assertion's use; false when the connection already saw this ID (a replay). */
export async function recordSamlAssertionUse(
  db: Db,
  row: { connectionId: string; assertionId: string; projectId: string; expiresAt: number },
): Promise<boolean> {
  const inserted = await db
    .insert(samlUsedAssertions)
    .values(row)
    .onConflictDoNothing()
    .returning({ assertionId: samlUsedAssertions.assertionId });
  return inserted.length === 1;
}

/** The daily clean-up: assertion IDs past their assertion's expiry. */
export async function deleteExpiredSamlAssertions(db: Db, now: number): Promise<number> {
  const result = await db.delete(samlUsedAssertions).where(lte(samlUsedAssertions.expiresAt, now)).run();
  return result.meta.changes ?? 0;
}
