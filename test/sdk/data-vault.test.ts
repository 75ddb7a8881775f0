/**
 * The server app's data vault stores against the real worker: values by key with a secret, a
 * missing key or another secret reads null, stores are separate, the secret is required, a 1 MiB
 * value fits, and Doorman holds only the hashed key and the encrypted value (sealed once more).
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { StackServerApp } from "../../sdk/src";
import { KnownError } from "../../sdk/src/shared/known-errors";
import { call, createProjectWithKeys } from "../helpers/api";
import { workerFetch } from "../helpers/worker-fetch";

const fetchImpl = (input: string, init: RequestInit) => workerFetch(input, init);
const base = { baseUrl: "http://localhost", fetch: fetchImpl, redirectMethod: "none" as const, tokenStore: "memory" as const };
const secret = "vault-test-secret";

async function setup() {
  const p = await createProjectWithKeys();
  const override = { "dataVault.stores.api-keys": { displayName: "API keys" }, "dataVault.stores.other": {} };
  const res = await call("/internal/config/override/environment", {
    ...p.admin,
    method: "PATCH",
    body: { config_override_string: JSON.stringify(override) },
  });
  expect(res.status, res.text).toBe(200);
  const server = new StackServerApp({ ...base, projectId: p.projectId, secretServerKey: p.server.secretServerKey });
  return { p, server };
}

describe("SDK data vault", () => {
  it("sets and gets values by key; a missing key or another secret reads null", async () => {
    const { p, server } = await setup();
    const store = await server.getDataVaultStore("api-keys");
    expect(store.id).toBe("api-keys");
    const value = JSON.stringify({ token: "sk_live_123", note: 'unicode 🔐\n\t"quoted"' });
    await store.setValue("user:42/😀", value, { secret });
    expect(await store.getValue("user:42/😀", { secret })).toBe(value);
    expect(await store.getValue("user:43", { secret })).toBeNull();
    expect(await store.getValue("user:42/😀", { secret: "another secret" })).toBeNull();

    await store.setValue("user:42/😀", "", { secret });
    expect(await store.getValue("user:42/😀", { secret })).toBe("");
    await store.setValue("same", "in api-keys", { secret });
    await (await server.getDataVaultStore("other")).setValue("same", "in other", { secret });
    expect(await store.getValue("same", { secret })).toBe("in api-keys");

    // Doorman never saw the key or the value.
    const rows = await env.DB.prepare("SELECT * FROM data_vault_entries WHERE project_id = ?").bind(p.projectId).all();
    const stored = JSON.stringify(rows.results);
    for (const clear of ["user:42", "sk_live_123", "in api-keys", "in other"]) expect(stored).not.toContain(clear);
  });

  it("reads a value the published Stack SDK wrote (same hashed key, same encryption)", async () => {
    const { p, server } = await setup();
    // Made once with @stackframe/stack-shared 2.8.108's vault helpers (hashKey, encryptValue).
    const published = {
      secret: "published-sdk-secret",
      key: "published-key",
      hashedKey: "G5V5bRSOh9xL5T2wYDcqkR6K1FvGd5MGYaSQHPEStfU=",
      encryptedValue: "AQCP3q8ZbHJAPUkYcDs1uC3igfZMXWsmkS7i1rBvJiEtNFcjHWT/5XKP22ygAsRXqLs2dwTJNbCtDysx5sLaSqzIZIuvjF/PDsWkb4oLEA==",
    };
    const res = await call("/data-vault/stores/api-keys/set", {
      ...p.server,
      body: { hashed_key: published.hashedKey, encrypted_value: published.encryptedValue },
    });
    expect(res.status, res.text).toBe(200);
    const store = await server.getDataVaultStore("api-keys");
    expect(await store.getValue(published.key, { secret: published.secret })).toBe("written by @stackframe/js 2.8.108");
  });

  it("needs the secret, and names an unknown store", async () => {
    const { server } = await setup();
    const store = await server.getDataVaultStore("api-keys");
    // @ts-expect-error: the secret is required
    await expect(store.setValue("k", "v", {})).rejects.toThrow(TypeError);
    // @ts-expect-error: the secret is required
    await expect(store.getValue("k")).rejects.toThrow(TypeError);
    const unknown = await server.getDataVaultStore("nope");
    const error = await unknown.getValue("k", { secret }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KnownError);
    expect((error as KnownError).code).toBe("DATA_VAULT_STORE_DOES_NOT_EXIST");
  });

  it("stores a 1 MiB value, and concurrent writes of different keys", async () => {
    const { server } = await setup();
    const store = await server.getDataVaultStore("api-keys");
    const large = "x".repeat(1024 * 1024);
    await store.setValue("large", large, { secret });
    expect(await store.getValue("large", { secret })).toBe(large);
    const keys = Array.from({ length: 5 }, (_, i) => `key-${i}`);
    await Promise.all(keys.map((k) => store.setValue(k, `value of ${k}`, { secret })));
    expect(await Promise.all(keys.map((k) => store.getValue(k, { secret })))).toEqual(keys.map((k) => `value of ${k}`));
  });
});
