/**
 * The data vault's values (issue 27): the server sets and gets values by hashed key in a store
 * the project's config declares. The client (the SDK) hashes the key and encrypts the value with
 * its own secret; the server seals that value again at rest, bound to (project, store, key).
 */
import { encryptAtRest, openSealed } from "../../crypto/at-rest";
import { sha256Hex } from "../../crypto/hash";
import { findVaultEntry, putVaultEntry, type VaultEntryKey } from "../../db/queries/data-vault";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { renderedConfigOf } from "../project-config/cache";
import { fail, type Problem } from "../result";
import { hasStore } from "./config";
import { PROJECT_QUOTA_BYTES } from "./limits";

async function entryKey(project: ProjectRow, storeId: string, hashedKey: string): Promise<VaultEntryKey> {
  // Why hashed again: a fixed-size index key, and the row does not hold the client's lookup key.
  return { projectId: project.id, storeId, keyHash: await sha256Hex(hashedKey) };
}

// Why bound: a sealed value copied to another project, store or key does not open there.
const boundTo = (k: VaultEntryKey) => JSON.stringify(["data-vault", k.projectId, k.storeId, k.keyHash]);

/** Stores `encryptedValue` under the hashed key, replacing any value there (the last write wins). */
export async function setVaultValue(
  deps: Deps,
  project: ProjectRow,
  storeId: string,
  hashedKey: string,
  encryptedValue: string,
): Promise<{ ok: true } | Problem<"data_vault_store_not_found" | "data_vault_quota_exceeded">> {
  if (!hasStore(renderedConfigOf(project).dataVault, storeId)) return fail("data_vault_store_not_found", { storeId });
  const k = await entryKey(project, storeId, hashedKey);
  const sealed = await encryptAtRest(deps.tokenKeys.secret, encryptedValue, boundTo(k));
  const written = await putVaultEntry(deps.db, k, { sealed, bytes: sealed.length }, deps.now(), PROJECT_QUOTA_BYTES);
  return written ? { ok: true } : fail("data_vault_quota_exceeded", { quotaBytes: PROJECT_QUOTA_BYTES });
}

/** The value under the hashed key, as the client encrypted it. */
export async function getVaultValue(
  deps: Deps,
  project: ProjectRow,
  storeId: string,
  hashedKey: string,
): Promise<{ ok: true; encryptedValue: string } | Problem<"data_vault_store_not_found" | "data_vault_key_not_found">> {
  if (!hasStore(renderedConfigOf(project).dataVault, storeId)) return fail("data_vault_store_not_found", { storeId });
  const k = await entryKey(project, storeId, hashedKey);
  const sealed = await findVaultEntry(deps.db, k);
  if (sealed === null) return fail("data_vault_key_not_found", { storeId, hashedKey });
  const value = await openSealed(deps.tokenKeys, sealed, boundTo(k));
  // A row that does not open (another secret, or moved from elsewhere) is corruption, not a missing key.
  if (value === null) throw new Error(`data vault entry does not open (project ${project.id}, store ${storeId})`);
  return { ok: true, encryptedValue: value };
}
