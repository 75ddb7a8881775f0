/** Data access for data vault entries (sealed values by project, store and key hash; see services/data-vault/). */
import { and, eq } from "drizzle-orm";
import type { Db } from "../client";
import { dataVaultEntries } from "../schema";

export type VaultEntryKey = { projectId: string; storeId: string; keyHash: string };

/**
 * Writes the entry (insert, or replace the value of the same key: the last write wins), only while
 * the project's stored bytes, this key's old value excluded, stay within `quotaBytes`. One statement,
 * so concurrent writes cannot both pass the check; false when the quota refused it.
 */
export async function putVaultEntry(
  db: Db,
  k: VaultEntryKey,
  value: { sealed: string; bytes: number },
  now: number,
  quotaBytes: number,
): Promise<boolean> {
  // Raw D1 statement: the quota guard is a subquery over the same table in an INSERT … SELECT, which the builder cannot express.
  const result = await db.$client
    .prepare(
      `INSERT INTO data_vault_entries (project_id, store_id, key_hash, value_bytes, value_sealed, created_at, updated_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?6
       WHERE (SELECT COALESCE(SUM(value_bytes), 0) FROM data_vault_entries
              WHERE project_id = ?1 AND NOT (store_id = ?2 AND key_hash = ?3)) + ?4 <= ?7
       ON CONFLICT (project_id, store_id, key_hash)
       DO UPDATE SET value_bytes = excluded.value_bytes, value_sealed = excluded.value_sealed, updated_at = excluded.updated_at`,
    )
    .bind(k.projectId, k.storeId, k.keyHash, value.bytes, value.sealed, now, quotaBytes)
    .run();
  return result.meta.changes === 1;
}

/** The sealed value of the entry, or null when there is none. */
export async function findVaultEntry(db: Db, k: VaultEntryKey): Promise<string | null> {
  const row = await db
    .select({ sealed: dataVaultEntries.valueSealed })
    .from(dataVaultEntries)
    .where(
      and(eq(dataVaultEntries.projectId, k.projectId), eq(dataVaultEntries.storeId, k.storeId), eq(dataVaultEntries.keyHash, k.keyHash)),
    )
    .get();
  return row?.sealed ?? null;
}
