/** The one-shot marks of CLI logins (table cli_handouts): claimed once, pruned after expiry. */
import { lt } from "drizzle-orm";
import type { Db } from "../client";
import { cliHandouts } from "../schema";

/** Claims the hand-out of one CLI login; true only for the first caller (the primary key decides). */
export async function claimCliHandout(db: Db, id: string, expiresAt: number): Promise<boolean> {
  const row = await db
    .insert(cliHandouts)
    .values({ id, expiresAt })
    .onConflictDoNothing({ target: cliHandouts.id })
    .returning({ id: cliHandouts.id })
    .get();
  return row !== undefined;
}

/** Deletes marks of logins that expired before `now` (their codes can no longer be polled). */
export async function pruneCliHandouts(db: Db, now: number): Promise<void> {
  await db.delete(cliHandouts).where(lt(cliHandouts.expiresAt, now));
}
