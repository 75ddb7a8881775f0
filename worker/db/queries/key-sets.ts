/** Data access for project key sets (publishable / secret / admin keys, stored as SHA-256). */
import { and, desc, eq, gt, isNull, type Placeholder } from "drizzle-orm";
import { forgetAuthRows } from "../auth-row-cache";
import type { Db } from "../client";
import { apiKeySets } from "../schema";

export type KeySetRow = typeof apiKeySets.$inferSelect;
export type KeyKind = "publishable" | "secret" | "admin";

const column = { publishable: apiKeySets.publishableKeyHash, secret: apiKeySets.secretKeyHash, admin: apiKeySets.adminKeyHash };

/** The query behind findValidKeySet, unexecuted (for a D1 batch). */
export function validKeySetQuery(
  db: Db,
  projectId: string | Placeholder,
  kind: KeyKind,
  keyHash: string | Placeholder,
  now: number | Placeholder,
) {
  return db
    .select({ id: apiKeySets.id })
    .from(apiKeySets)
    .where(and(eq(apiKeySets.projectId, projectId), eq(column[kind], keyHash), isNull(apiKeySets.revokedAt), gt(apiKeySets.expiresAt, now)))
    .limit(1);
}

/** A valid (unrevoked, unexpired) key set of the project holding this key hash in the given column. */
export async function findValidKeySet(
  db: Db,
  projectId: string,
  kind: KeyKind,
  keyHash: string,
  now: number,
): Promise<{ id: string } | null> {
  return (await validKeySetQuery(db, projectId, kind, keyHash, now).get()) ?? null;
}

export function insertKeySetStatement(db: Db, row: typeof apiKeySets.$inferInsert) {
  return db.insert(apiKeySets).values(row).onConflictDoNothing();
}

export async function listKeySets(db: Db, projectId: string): Promise<KeySetRow[]> {
  return db.select().from(apiKeySets).where(eq(apiKeySets.projectId, projectId)).orderBy(desc(apiKeySets.createdAt)).all();
}

export async function findKeySet(db: Db, projectId: string, id: string): Promise<KeySetRow | null> {
  return (
    (await db
      .select()
      .from(apiKeySets)
      .where(and(eq(apiKeySets.projectId, projectId), eq(apiKeySets.id, id)))
      .get()) ?? null
  );
}

/** Updates description and, one-way, the revocation time (never un-revokes). */
export async function updateKeySet(
  db: Db,
  projectId: string,
  id: string,
  patch: { description?: string; revokedAt?: number },
): Promise<KeySetRow | null> {
  const current = await findKeySet(db, projectId, id);
  if (!current) return null;
  const set: Partial<KeySetRow> = {};
  if (patch.description !== undefined) set.description = patch.description;
  if (patch.revokedAt !== undefined && current.revokedAt === null) set.revokedAt = patch.revokedAt;
  if (Object.keys(set).length === 0) return current;
  const row =
    (await db
      .update(apiKeySets)
      .set(set)
      .where(and(eq(apiKeySets.projectId, projectId), eq(apiKeySets.id, id)))
      .returning()
      .get()) ?? null;
  forgetAuthRows(); // a revoked key must stop working here at once
  return row;
}
