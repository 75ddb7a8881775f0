/** Data access for TOTP recovery codes (hashes only; see services/auth/mfa-recovery.ts). */
import { and, count, eq, isNull } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../client";
import { mfaRecoveryCodes, users } from "../schema";

export type NewRecoveryCode = typeof mfaRecoveryCodes.$inferInsert;

/** Replaces the user's codes with `rows` (the old set stops working in the same batch). */
export async function replaceRecoveryCodes(db: Db, userId: string, rows: NewRecoveryCode[], extra: BatchItem<"sqlite">[] = []) {
  await db.batch([
    db.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId)),
    ...rows.map((r) => db.insert(mfaRecoveryCodes).values(r)),
    ...extra,
  ]);
}

/** The delete of all the user's codes (TOTP turned off), for the change's batch. */
export function deleteRecoveryCodesStatement(db: Db, userId: string) {
  return db.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
}

/** Uses up the unused code with this hash; true only for the one caller whose update flipped `used_at`. */
export async function spendRecoveryCode(db: Db, projectId: string, userId: string, codeHash: string, now: number): Promise<boolean> {
  const rows = await db
    .update(mfaRecoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(mfaRecoveryCodes.projectId, projectId),
        eq(mfaRecoveryCodes.userId, userId),
        eq(mfaRecoveryCodes.codeHash, codeHash),
        isNull(mfaRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: mfaRecoveryCodes.id });
  return rows.length === 1;
}

/** How many of the user's codes are still unused. */
export async function countUnusedRecoveryCodes(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(mfaRecoveryCodes)
    .where(and(eq(mfaRecoveryCodes.userId, userId), isNull(mfaRecoveryCodes.usedAt)));
  return row?.n ?? 0;
}

/** Turns TOTP on for a user who has none (compare-and-set: a concurrent enrolment cannot overwrite it). */
export async function setTotpSecretIfUnset(db: Db, projectId: string, userId: string, sealed: string): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ totpSecret: sealed })
    .where(and(eq(users.projectId, projectId), eq(users.id, userId), isNull(users.totpSecret)))
    .returning({ id: users.id });
  return rows.length === 1;
}

/** Whether the user has an unused code with this hash. */
export async function hasUnusedRecoveryCode(db: Db, projectId: string, userId: string, codeHash: string): Promise<boolean> {
  const row = await db
    .select({ id: mfaRecoveryCodes.id })
    .from(mfaRecoveryCodes)
    .where(
      and(
        eq(mfaRecoveryCodes.projectId, projectId),
        eq(mfaRecoveryCodes.userId, userId),
        eq(mfaRecoveryCodes.codeHash, codeHash),
        isNull(mfaRecoveryCodes.usedAt),
      ),
    )
    .get();
  return Boolean(row);
}
