/** Data access for passkeys (one WebAuthn credential per user; a new registration replaces the old). */
import { and, eq, lt } from "drizzle-orm";
import type { Db } from "../client";
import { passkeys, users } from "../schema";
import { insertEventStatement, type NewEvent } from "./events";

export type PasskeyRow = typeof passkeys.$inferSelect;
export type NewPasskey = Omit<typeof passkeys.$inferInsert, "lastUsedAt">;

/**
 * Stores the user's passkey (replacing any previous one: unique index on user_id) and turns on
 * passkey sign-in for the user, in one batch. Throws on the (project, credential id) unique
 * index when another user of the project already holds that credential id.
 */
export async function savePasskey(db: Db, row: NewPasskey, event: NewEvent): Promise<void> {
  await db.batch([
    db
      .insert(passkeys)
      .values(row)
      .onConflictDoUpdate({
        target: passkeys.userId,
        set: {
          id: row.id,
          credentialId: row.credentialId,
          publicKey: row.publicKey,
          counter: row.counter,
          transports: row.transports,
          userHandle: row.userHandle,
          createdAt: row.createdAt,
          lastUsedAt: null,
        },
      }),
    db
      .update(users)
      .set({ passkeyAuthEnabled: true })
      .where(and(eq(users.projectId, row.projectId), eq(users.id, row.userId))),
    insertEventStatement(db, event),
  ]);
}

export async function findPasskeyByCredentialId(db: Db, projectId: string, credentialId: string): Promise<PasskeyRow | null> {
  const row = await db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.projectId, projectId), eq(passkeys.credentialId, credentialId)))
    .get();
  return row ?? null;
}

/**
 * Records a sign-in with the passkey. Compare-and-set on the signature counter: it only moves
 * forward (or stays 0 for authenticators without one), so of two racing assertions with the
 * same counter value only one wins. False when the counter did not allow the update.
 */
export async function recordPasskeyUse(db: Db, row: PasskeyRow, newCounter: number, now: number): Promise<boolean> {
  const updated = await db
    .update(passkeys)
    .set({ counter: newCounter, lastUsedAt: now })
    .where(and(eq(passkeys.id, row.id), newCounter === 0 ? eq(passkeys.counter, 0) : lt(passkeys.counter, newCounter)))
    .returning({ id: passkeys.id })
    .get();
  return updated !== undefined;
}

/** Does the user hold a passkey that may sign in (a stored credential, and passkey sign-in not turned off)? */
export async function hasUsablePasskey(db: Db, projectId: string, userId: string): Promise<boolean> {
  const row = await db
    .select({ id: passkeys.id })
    .from(passkeys)
    .innerJoin(users, eq(users.id, passkeys.userId))
    .where(and(eq(passkeys.projectId, projectId), eq(passkeys.userId, userId), eq(users.passkeyAuthEnabled, true)))
    .get();
  return row !== undefined;
}
