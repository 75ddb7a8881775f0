/** Data access for one-time codes (stored as hashes; single use enforced by a conditional UPDATE). */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../client";
import { verificationCodes } from "../schema";

export type VerificationCodeRow = typeof verificationCodes.$inferSelect;

export function insertCodeStatement(db: Db, row: typeof verificationCodes.$inferInsert) {
  return db.insert(verificationCodes).values(row);
}

/**
 * Counts one attempt against every code of the project sharing the nonce, then reads the code
 * itself: both in one D1 round trip, in that order.
 */
export async function countAttemptAndFind(
  db: Db,
  projectId: string,
  purpose: string,
  nonceHash: string,
  codeHash: string,
): Promise<VerificationCodeRow | null> {
  const [, rows] = await db.batch([
    db
      .update(verificationCodes)
      .set({ attempts: sql`${verificationCodes.attempts} + 1` })
      .where(and(eq(verificationCodes.projectId, projectId), eq(verificationCodes.nonceHash, nonceHash))),
    db
      .select()
      .from(verificationCodes)
      .where(
        and(eq(verificationCodes.projectId, projectId), eq(verificationCodes.purpose, purpose), eq(verificationCodes.codeHash, codeHash)),
      )
      .limit(1),
  ]);
  return (rows[0] as VerificationCodeRow | undefined) ?? null;
}

/** Marks the code used if nobody did first; null when another request won the race. */
export async function markCodeUsed(db: Db, id: string, now: number): Promise<VerificationCodeRow | null> {
  const row = await db
    .update(verificationCodes)
    .set({ usedAt: now })
    .where(and(eq(verificationCodes.id, id), isNull(verificationCodes.usedAt)))
    .returning()
    .get();
  return row ?? null;
}

/** Retires unused codes of one purpose and subject (e.g. older reset codes of the same user). */
export async function revokeOpenCodes(
  db: Db,
  projectId: string,
  purpose: string,
  subjectKey: string,
  subjectValue: string,
  now: number,
): Promise<void> {
  await db
    .update(verificationCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(verificationCodes.projectId, projectId),
        eq(verificationCodes.purpose, purpose),
        isNull(verificationCodes.usedAt),
        sql`json_extract(${verificationCodes.data}, ${`$.${subjectKey}`}) = ${subjectValue}`,
      ),
    );
}

// --- oauth: codes looked up before the project is known, and per-code flags in `data` ---

/** The project of a live-or-not code of this purpose (the OAuth callback learns it from the state alone). */
export async function findProjectIdOfCode(db: Db, purpose: string, codeHash: string): Promise<string | null> {
  const row = await db
    .select({ projectId: verificationCodes.projectId })
    .from(verificationCodes)
    .where(and(eq(verificationCodes.purpose, purpose), eq(verificationCodes.codeHash, codeHash)))
    .get();
  return row?.projectId ?? null;
}

/**
 * Sets one key of a code's `data` in a single statement (json_set) and returns the updated
 * data, so two requests racing on the same code each see the other's completed write.
 */
export async function setCodeDataKey(
  db: Db,
  projectId: string,
  purpose: string,
  codeHash: string,
  key: string,
  value: unknown,
): Promise<Record<string, unknown> | null> {
  const row = await db
    .update(verificationCodes)
    .set({ data: sql`json_set(${verificationCodes.data}, ${`$.${key}`}, json(${JSON.stringify(value)}))` })
    .where(
      and(eq(verificationCodes.projectId, projectId), eq(verificationCodes.purpose, purpose), eq(verificationCodes.codeHash, codeHash)),
    )
    .returning({ data: verificationCodes.data })
    .get();
  return row?.data ?? null;
}

/** The code of a purpose whose nonce hashes to this (the client's half): a device-code resend or a wrong guess's owner. */
export async function findCodeByNonce(db: Db, projectId: string, purpose: string, nonceHash: string): Promise<VerificationCodeRow | null> {
  const row = await db
    .select()
    .from(verificationCodes)
    .where(
      and(eq(verificationCodes.projectId, projectId), eq(verificationCodes.purpose, purpose), eq(verificationCodes.nonceHash, nonceHash)),
    )
    .limit(1)
    .get();
  return row ?? null;
}
