/**
 * The `dataVault` section of the config, the reference's keys: `dataVault.stores.<storeId>` with a
 * display name. A store must be configured before the server can read or write it (entries.ts).
 */
import { userIdSchema } from "@doorman/shared/wire-payments";
import { z } from "zod";

/** The reference's default name of a store set without one. */
export const DEFAULT_STORE_DISPLAY_NAME = "Unnamed Vault";

export const dataVaultConfigSchema = z.strictObject({
  stores: z.record(userIdSchema, z.strictObject({ displayName: z.string().max(256).default(DEFAULT_STORE_DISPLAY_NAME) })),
});
export type DataVaultConfig = z.infer<typeof dataVaultConfigSchema>;

export const defaultDataVaultConfig = (): DataVaultConfig => ({ stores: {} });

/** Whether the project's config has this store (own keys only: "constructor" is not a store). */
export function hasStore(config: DataVaultConfig, storeId: string): boolean {
  return Object.hasOwn(config.stores, storeId);
}
