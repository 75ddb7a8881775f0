/**
 * The data vault's problem reasons, each with the fields its wire error reads: a slice of
 * ProblemFields (services/result.ts), mapped by `dataVaultProblems` in worker/http/problems/data-vault.ts.
 */

export type DataVaultProblemFields = {
  /** The project's config has no store of this id. */
  data_vault_store_not_found: { storeId: string };
  /** The store has no value under this hashed key. */
  data_vault_key_not_found: { storeId: string; hashedKey: string };
  /** The write would take the project's stored bytes past the quota. */
  data_vault_quota_exceeded: { quotaBytes: number };
};
