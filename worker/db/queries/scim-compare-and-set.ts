/**
 * The guard that makes a SCIM write's whole D1 batch stand or fall with its compare-and-set (issue 31).
 * A batch is one transaction, but a statement that matches nothing does not stop the ones after it: the
 * guard, placed right after the `… WHERE version = ?` statement, fails the batch when that statement
 * changed no row (SQLite's changes()), so the batch rolls back and the service reads again or answers
 * 412. D1 has no RAISE outside triggers, so the failure is a NOT NULL violation no real write makes.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../client";

const GUARD_COLUMN = "scim_group_members.group_id";

/** Fails the batch when the statement right before it changed no row; does nothing otherwise. */
export function abortUnlessChangedStatement(db: Db) {
  return db.run(sql`INSERT INTO scim_group_members (group_id, identity_id) SELECT NULL, NULL WHERE changes() = 0`);
}

/** Did a batch fail on its guard (another write won the compare-and-set)? */
export function isLostCompareAndSet(err: unknown): boolean {
  const text = `${String(err)} ${String((err as { cause?: unknown })?.cause ?? "")}`;
  return text.includes("NOT NULL constraint failed") && text.includes(GUARD_COLUMN);
}
