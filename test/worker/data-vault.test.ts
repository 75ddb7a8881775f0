/**
 * The data vault (issue 27), wire as the reference: stores come from `dataVault.stores` in the
 * config; the server sets and gets values by hashed key; an unknown store or key is a known error;
 * clients are refused; keys and values are capped; values are sealed at rest, bound to their key;
 * concurrent writes to one key leave one whole value (the last write wins); a project's total is capped.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys } from "../helpers/api";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

async function vaultProject(stores: string[] = ["main", "other"]): Promise<Project> {
  const p = await createProjectWithKeys();
  const override = { dataVault: { stores: Object.fromEntries(stores.map((s) => [s, { displayName: `Store ${s}` }])) } };
  const res = await call("/internal/config/override/environment", {
    ...p.admin,
    method: "PATCH",
    body: { config_override_string: JSON.stringify(override) },
  });
  expect(res.status, res.text).toBe(200);
  return p;
}

const set = (p: Project, store: string, hashedKey: string, value: string, access: object = p.server) =>
  call(`/data-vault/stores/${encodeURIComponent(store)}/set`, { ...access, body: { hashed_key: hashedKey, encrypted_value: value } });
const get = (p: Project, store: string, hashedKey: string, access: object = p.server) =>
  call(`/data-vault/stores/${encodeURIComponent(store)}/get`, { ...access, body: { hashed_key: hashedKey } });

const rowsOf = async (projectId: string) =>
  (
    await env.DB.prepare("SELECT * FROM data_vault_entries WHERE project_id = ? ORDER BY store_id")
      .bind(projectId)
      .all<Record<string, unknown>>()
  ).results;

describe("data vault", () => {
  it("sets, gets and overwrites a value; stores and keys are separate", async () => {
    const p = await vaultProject();
    const first = await set(p, "main", "k1", "first");
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ success: true });
    expect((await get(p, "main", "k1")).body).toEqual({ encrypted_value: "first" });

    expect((await set(p, "main", "k1", "second")).status).toBe(200);
    expect((await get(p, "main", "k1")).body).toEqual({ encrypted_value: "second" });

    await set(p, "other", "k1", "in other");
    await set(p, "main", "k2", "");
    expect((await get(p, "other", "k1")).body.encrypted_value).toBe("in other");
    expect((await get(p, "main", "k1")).body.encrypted_value).toBe("second");
    expect((await get(p, "main", "k2")).body.encrypted_value).toBe("");
    // The admin key reads it too (server or higher).
    expect((await get(p, "main", "k1", p.adminKey)).body.encrypted_value).toBe("second");
    expect(await rowsOf(p.projectId)).toHaveLength(3);
  });

  it("answers the reference's known errors for an unknown store and an unknown key", async () => {
    const p = await vaultProject();
    const missingKey = await get(p, "main", "hashed(nothing)");
    expect(missingKey.status).toBe(400);
    expect(missingKey.headers.get("x-stack-known-error")).toBe("DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST");
    expect(missingKey.body).toEqual({
      code: "DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST",
      details: { store_id: "main", hashed_key: "hashed(nothing)" },
      error: "Data vault store with ID main does not contain a key with hash hashed(nothing).",
    });

    for (const store of ["nope", "  ", "constructor", "__proto__"]) {
      for (const res of [await set(p, store, "k", "v"), await get(p, store, "k")]) {
        expect(res.status, `${store}: ${res.text}`).toBe(400);
        expect(res.body.code).toBe("DATA_VAULT_STORE_DOES_NOT_EXIST");
        expect(res.body.details).toEqual({ store_id: store });
      }
    }
    // A project without stores has none.
    const bare = await createProjectWithKeys();
    expect((await set(bare, "main", "k", "v")).body.code).toBe("DATA_VAULT_STORE_DOES_NOT_EXIST");
    expect(await rowsOf(p.projectId)).toHaveLength(0);
  });

  it("removing a store from the config makes its values unreachable", async () => {
    const p = await vaultProject();
    await set(p, "other", "k", "v");
    const res = await call("/internal/config/override/environment", {
      ...p.admin,
      method: "PATCH",
      body: { config_override_string: JSON.stringify({ "dataVault.stores.other": null }) },
    });
    expect(res.status, res.text).toBe(200);
    expect((await get(p, "other", "k")).body.code).toBe("DATA_VAULT_STORE_DOES_NOT_EXIST");
    expect((await get(p, "main", "k")).body.code).toBe("DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST");
  });

  it("refuses clients, and callers without keys", async () => {
    const p = await vaultProject();
    await set(p, "main", "k", "secret");
    for (const res of [await set(p, "main", "k", "overwritten", p.client), await get(p, "main", "k", p.client)]) {
      expect(res.status, res.text).toBe(401);
      expect(res.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
    }
    const noKey = await get(p, "main", "k", { projectId: p.projectId, accessType: "server" });
    expect(noKey.status).toBe(401);
    // Another project's server key reaches only its own vault.
    const q = await vaultProject();
    expect((await get(q, "main", "k")).body.code).toBe("DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST");
    expect((await get(p, "main", "k")).body.encrypted_value).toBe("secret");
  });

  it("validates the body: an empty or long key, a value over the cap, unknown fields", async () => {
    const p = await vaultProject();
    const empty = await set(p, "main", "", "v");
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe("SCHEMA_ERROR");
    expect(empty.body.error).toContain("body.hashed_key: must not be empty");
    expect((await get(p, "main", "")).body.code).toBe("SCHEMA_ERROR");
    expect((await set(p, "main", "k".repeat(513), "v")).body.code).toBe("SCHEMA_ERROR");
    expect((await set(p, "main", "k".repeat(512), "v")).status).toBe(200);

    // 1,400,000 bytes is the cap: in UTF-8 bytes, so multi-byte characters count for what they take.
    const atCap = await set(p, "main", "big", "x".repeat(1_400_000));
    expect(atCap.status, atCap.text.slice(0, 200)).toBe(200);
    expect((await get(p, "main", "big")).body.encrypted_value).toHaveLength(1_400_000);
    const over = await set(p, "main", "big", "x".repeat(1_400_001));
    expect(over.status).toBe(400);
    expect(over.body.code).toBe("SCHEMA_ERROR");
    expect(over.body.error).toContain("body.encrypted_value: must be at most 1400000 bytes (UTF-8)");
    const wide = await set(p, "main", "wide", "€".repeat(466_667));
    expect(wide.body.code).toBe("SCHEMA_ERROR");
    // A body past the route's limit is refused before it is parsed.
    const huge = await set(p, "main", "huge", "x".repeat(1_600_000));
    expect(huge.status).toBe(400);
    expect(huge.body.code).toBe("BODY_PARSING_ERROR");
    const extra = await call("/data-vault/stores/main/set", { ...p.server, body: { hashed_key: "k", encrypted_value: "v", id: "x" } });
    expect(extra.body.code).toBe("SCHEMA_ERROR");
  });

  it("seals values at rest, bound to their project, store and key", async () => {
    const p = await vaultProject();
    const value = "plaintext-value-that-must-not-appear";
    await set(p, "main", "hashed(my-key)", value);
    await set(p, "main", "hashed(other-key)", "other value");
    const rows = await rowsOf(p.projectId);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(JSON.stringify(row)).not.toContain(value);
      expect(JSON.stringify(row)).not.toContain("hashed(");
      expect(String(row.value_sealed)).toMatch(/^v1\./);
      expect(String(row.key_hash)).toMatch(/^[0-9a-f]{64}$/);
    }
    // A sealed value moved onto another key does not open there (a 500, never the moved value).
    const [a, b] = rows as [Record<string, unknown>, Record<string, unknown>];
    await env.DB.prepare("UPDATE data_vault_entries SET value_sealed = ? WHERE project_id = ? AND key_hash = ?")
      .bind(a.value_sealed, p.projectId, b.key_hash)
      .run();
    const moved = await get(p, "main", "hashed(my-key)");
    const other = await get(p, "main", "hashed(other-key)");
    const victim = moved.status === 200 ? other : moved;
    expect(victim.status).toBe(500);
    expect(victim.text).not.toContain(value);
  });

  it("concurrent writes to one key leave one whole value, the last written", async () => {
    const p = await vaultProject();
    const values = Array.from({ length: 12 }, (_, i) => `value-${i}-${"y".repeat(1000)}`);
    const results = await Promise.all(values.map((v) => set(p, "main", "race", v)));
    expect(results.map((r) => r.status)).toEqual(values.map(() => 200));
    const rows = await rowsOf(p.projectId);
    expect(rows).toHaveLength(1);
    const final = (await get(p, "main", "race")).body.encrypted_value;
    expect(values).toContain(final);
    // Concurrent reads all see it.
    const reads = await Promise.all(values.map(() => get(p, "main", "race")));
    expect(new Set(reads.map((r) => r.body.encrypted_value))).toEqual(new Set([final]));
  });

  it("caps what one project keeps: a write past the quota is a 413 and changes nothing", async () => {
    const p = await vaultProject();
    await set(p, "main", "kept", "small");
    // Stand in for a vault filled to 64 MiB without writing it: one row that claims the bytes.
    await env.DB.prepare(
      "INSERT INTO data_vault_entries (project_id, store_id, key_hash, value_bytes, value_sealed, created_at, updated_at) VALUES (?, 'main', 'filler', ?, 'x', 0, 0)",
    )
      .bind(p.projectId, 64 * 1024 * 1024 - 200)
      .run();
    const full = await set(p, "main", "new", "x".repeat(500));
    expect(full.status, full.text).toBe(413);
    expect(full.text).toContain("data vault is full");
    expect((await get(p, "main", "new")).body.code).toBe("DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST");
    // Replacing a value counts the new size instead of the old one.
    expect((await set(p, "main", "kept", "tiny")).status).toBe(200);
    expect((await get(p, "main", "kept")).body.encrypted_value).toBe("tiny");
    // Another project is not affected.
    const q = await vaultProject();
    expect((await set(q, "main", "new", "x".repeat(500))).status).toBe(200);
  });

  it("renders the stores in the config, with the reference's default name", async () => {
    const p = await vaultProject(["named"]);
    await call("/internal/config/override/environment", {
      ...p.admin,
      method: "PATCH",
      body: { config_override_string: JSON.stringify({ "dataVault.stores.unnamed": {} }) },
    });
    const res = await call("/internal/config", p.admin);
    const config = JSON.parse(res.body.config_string);
    expect(config.dataVault).toEqual({ stores: { named: { displayName: "Store named" }, unnamed: { displayName: "Unnamed Vault" } } });
    const bad = await call("/internal/config/override/environment", {
      ...p.admin,
      method: "PATCH",
      body: { config_override_string: JSON.stringify({ "dataVault.stores.bad id!": { displayName: "x" } }) },
    });
    // A config override it cannot take is a plain 400 naming the key (no known-error code), as the reference.
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("dataVault.stores");
  });

  it("deleting the project deletes its values", async () => {
    const p = await vaultProject();
    await set(p, "main", "k", "v");
    const res = await call("/internal/projects/current", { ...p.admin, method: "DELETE" });
    expect(res.status, res.text).toBe(200);
    expect(await rowsOf(p.projectId)).toHaveLength(0);
  });
});
