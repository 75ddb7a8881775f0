/** Data access for user and team API keys (the `api_keys` table; only SHA-256 hashes of keys). */
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "../client";
import { apiKeys } from "../schema";
import { insertEventIfChangedStatement, insertEventStatement, type NewEvent } from "./events";

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type ApiKeyOwner = { type: "user"; userId: string } | { type: "team"; teamId: string };

/** Inserts the key with its event, in one batch. */
export async function insertApiKey(db: Db, row: typeof apiKeys.$inferInsert, event: NewEvent): Promise<ApiKeyRow> {
  const [[inserted]] = await db.batch([db.insert(apiKeys).values(row).returning(), insertEventStatement(db, event)]);
  if (!inserted) throw new Error("api key insert returned no row");
  return inserted;
}

/**
 * Revokes a key that is not revoked yet, with its event in the same batch (written only by the
 * call that revoked it, so two concurrent revokes record one), then answers the row.
 */
export async function revokeApiKey(db: Db, projectId: string, id: string, now: number, event: NewEvent): Promise<ApiKeyRow | null> {
  const where = and(eq(apiKeys.projectId, projectId), eq(apiKeys.id, id));
  await db.batch([
    db
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(where, isNull(apiKeys.revokedAt))),
    insertEventIfChangedStatement(db, event),
  ]);
  return findApiKey(db, projectId, id);
}

export async function findApiKey(db: Db, projectId: string, id: string): Promise<ApiKeyRow | null> {
  return (
    (await db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.projectId, projectId), eq(apiKeys.id, id)))
      .get()) ?? null
  );
}

/** The key with this hash; scoped to a project unless `projectId` is null (the secret-scanner path). */
export async function findApiKeyByHash(db: Db, projectId: string | null, keyHash: string): Promise<ApiKeyRow | null> {
  const byHash = eq(apiKeys.keyHash, keyHash);
  return (
    (await db
      .select()
      .from(apiKeys)
      .where(projectId === null ? byHash : and(eq(apiKeys.projectId, projectId), byHash))
      .get()) ?? null
  );
}

/** A user's or a team's keys, newest first. */
export async function listApiKeysOf(db: Db, projectId: string, owner: ApiKeyOwner): Promise<ApiKeyRow[]> {
  const ownerMatch = owner.type === "user" ? eq(apiKeys.userId, owner.userId) : eq(apiKeys.teamId, owner.teamId);
  return db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.projectId, projectId), eq(apiKeys.type, owner.type), ownerMatch))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .all();
}

/**
 * Sets the description and/or revokes, in one statement. Revocation is one-way and keeps the
 * first time: `coalesce` never overwrites or clears an existing `revoked_at`, even under a race.
 */
export async function updateApiKey(db: Db, projectId: string, id: string, patch: { description?: string }): Promise<ApiKeyRow | null> {
  const set: { description?: string } = {};
  if (patch.description !== undefined) set.description = patch.description;
  if (Object.keys(set).length === 0) return findApiKey(db, projectId, id);
  return (
    (await db
      .update(apiKeys)
      .set(set)
      .where(and(eq(apiKeys.projectId, projectId), eq(apiKeys.id, id)))
      .returning()
      .get()) ?? null
  );
}
