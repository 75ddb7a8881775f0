/**
 * Data access for used client assertions (RFC 7523 private_key_jwt; issue 30): a jti is recorded once
 * per client with INSERT … ON CONFLICT DO NOTHING, so a replayed assertion finds its jti taken even
 * when both arrive at once. The daily cron deletes the rows past the assertion's exp.
 */
import { lte } from "drizzle-orm";
import type { Db } from "../client";
import { oauthClientAssertionJtis } from "../schema";

/** Records the assertion's jti; false when the client already used it (a replay). */
export async function recordClientAssertionJti(
  db: Db,
  row: { projectId: string; clientId: string; jti: string; expiresAt: number },
): Promise<boolean> {
  const inserted = await db
    .insert(oauthClientAssertionJtis)
    .values(row)
    .onConflictDoNothing()
    .returning({ jti: oauthClientAssertionJtis.jti });
  return inserted.length === 1;
}

/** The daily clean-up: jtis whose assertion has expired (it would be refused by its exp anyway). */
export async function deleteExpiredClientAssertionJtis(db: Db, now: number): Promise<number> {
  const result = await db.delete(oauthClientAssertionJtis).where(lte(oauthClientAssertionJtis.expiresAt, now)).run();
  return result.meta.changes ?? 0;
}
