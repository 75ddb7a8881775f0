/**
 * Data vault stores of the server app (issue 27): `serverApp.getDataVaultStore(id)` gives a store
 * whose values are set and read by key with the app's secret. The key is hashed and the value
 * encrypted here (data-vault-crypto.ts); Doorman only ever sees those.
 */
import type { RequestOptions } from "../interface/http";
import { KnownError } from "../shared/known-errors";
import { decryptVaultValue, deriveVaultKey, encryptVaultValue, hashVaultKey } from "./data-vault-crypto";

export type DataVaultSecretOptions = {
  /** The app's vault secret (keep it on your server): without it no value can be read, and a different one finds no value. */
  secret: string;
};

export type DataVaultStore = {
  readonly id: string;
  /** Stores `value` under `key`, replacing any value there. */
  setValue(key: string, value: string, options: DataVaultSecretOptions): Promise<void>;
  /** The value under `key`, or null when there is none (or it was stored with another secret). */
  getValue(key: string, options: DataVaultSecretOptions): Promise<string | null>;
};

type ServerRequest = <T>(path: string, options?: RequestOptions) => Promise<T>;

function secretOf(options: DataVaultSecretOptions | undefined): string {
  if (typeof options?.secret !== "string")
    throw new TypeError("A data vault call needs { secret }: the string your values are encrypted with.");
  return options.secret;
}

/** A store of the project's config (`dataVault.stores.<id>`); an unknown id fails on first use (DATA_VAULT_STORE_DOES_NOT_EXIST). */
export function dataVaultStore(request: ServerRequest, id: string): DataVaultStore {
  const path = (action: "get" | "set") => `/data-vault/stores/${encodeURIComponent(id)}/${action}`;
  return {
    id,
    setValue: async (key, value, options) => {
      const secret = secretOf(options);
      const derived = await deriveVaultKey(secret, key);
      const body = { hashed_key: await hashVaultKey(secret, derived), encrypted_value: await encryptVaultValue(derived, value) };
      await request(path("set"), { body });
    },
    getValue: async (key, options) => {
      const secret = secretOf(options);
      const derived = await deriveVaultKey(secret, key);
      try {
        const json = await request<{ encrypted_value: string }>(path("get"), { body: { hashed_key: await hashVaultKey(secret, derived) } });
        return await decryptVaultValue(derived, json.encrypted_value);
      } catch (error) {
        if (error instanceof KnownError && error.code === "DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST") return null;
        throw error;
      }
    },
  };
}
