/** The wire errors of the data vault problems (the /data-vault routes). */
import { KnownError } from "@doorman/shared/known-errors";
import { StatusError } from "../../lib/errors";
import type { DataVaultProblemFields } from "../../services/data-vault/problems";
import type { ProblemMap } from "../../services/result";

export const dataVaultProblems = {
  data_vault_store_not_found: (p) => new KnownError("DATA_VAULT_STORE_DOES_NOT_EXIST", { store_id: p.storeId }),
  data_vault_key_not_found: (p) =>
    new KnownError("DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST", { store_id: p.storeId, hashed_key: p.hashedKey }),
  // The wire has no known error for a full vault: a plain 413, as the reference answers limits it has no code for.
  data_vault_quota_exceeded: (p) =>
    new StatusError(413, `The project's data vault is full: its values may take at most ${p.quotaBytes} bytes in all.`),
} satisfies ProblemMap<keyof DataVaultProblemFields>;
