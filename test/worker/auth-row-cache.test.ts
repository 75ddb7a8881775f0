/**
 * The isolate's memory of project rows and valid keys (worker/db/auth-row-cache.ts): a change made
 * in this isolate is seen at once; a change made elsewhere (here: straight into D1, as another
 * isolate's write would land) is seen once AUTH_ROW_TTL_MS has passed, never later.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { AUTH_ROW_TTL_MS, authRowEpoch, cachedProjectRow, forgetAuthRows, rememberProjectRow } from "../../worker/db/auth-row-cache";
import type { ProjectRow } from "../../worker/db/queries/projects";
import { call, createProjectWithKeys } from "../helpers/api";

describe("isolate cache of project rows and keys", () => {
  it("a key revoked through the API is refused at once", async () => {
    const p = await createProjectWithKeys();
    expect((await call("/users", p.server)).status).toBe(200);
    const revoked = await call(`/internal/api-keys/${p.keyId}`, { ...p.admin, method: "PATCH", body: { revoked: true } });
    expect(revoked.status).toBe(200);
    expect((await call("/users", p.server)).body.code).toBe("INVALID_SECRET_SERVER_KEY");
  });

  it("a config change made through the API is seen by the next request", async () => {
    const p = await createProjectWithKeys();
    expect(
      (await call("/auth/password/sign-up", { ...p.client, body: { email: "a@example.com", password: "first password 1" } })).status,
    ).toBe(200);
    await call("/internal/projects/current", { ...p.admin, method: "PATCH", body: { config: { sign_up_enabled: false } } });
    const refused = await call("/auth/password/sign-up", { ...p.client, body: { email: "b@example.com", password: "second password 1" } });
    expect(refused.body.code).toBe("SIGN_UP_NOT_ENABLED");
  });

  it("a change from another isolate is seen within the TTL: stale before it, fresh after", async () => {
    const p = await createProjectWithKeys();
    const t0 = Date.now() + 3_600_000; // an hour ahead: nothing of the setup above is remembered at these times
    expect((await call("/users", { ...p.server, nowMs: t0 })).status).toBe(200);
    // Another isolate revokes the key: the row changes in D1, this isolate is not told.
    await env.DB.prepare("UPDATE api_key_sets SET revoked_at = ?1 WHERE id = ?2").bind(Date.now(), p.keyId).run();
    expect((await call("/users", { ...p.server, nowMs: t0 + AUTH_ROW_TTL_MS - 1000 })).status).toBe(200);
    expect((await call("/users", { ...p.server, nowMs: t0 + AUTH_ROW_TTL_MS })).body.code).toBe("INVALID_SECRET_SERVER_KEY");
  });

  it("an unknown key or project is never remembered", async () => {
    const p = await createProjectWithKeys();
    const missing = await call("/users", { ...p.server, projectId: "00000000-0000-4000-8000-00000000dead" });
    expect(missing.body.code).toBe("CURRENT_PROJECT_NOT_FOUND");
    expect((await call("/users", { ...p.server, secretServerKey: "ssk_wrong" })).body.code).toBe("INVALID_SECRET_SERVER_KEY");
    expect((await call("/users", p.server)).status).toBe(200);
  });

  it("a lookup that was reading when a write forgot does not store its (older) row", () => {
    const row = { id: "epoch-project" } as ProjectRow;
    const now = Date.now();
    const readAt = authRowEpoch();
    forgetAuthRows(); // a write landed while the lookup's batch was in flight
    rememberProjectRow(row, now, readAt);
    expect(cachedProjectRow(row.id, now)).toBeUndefined();
    rememberProjectRow(row, now, authRowEpoch());
    expect(cachedProjectRow(row.id, now)).toBe(row);
    expect(cachedProjectRow(row.id, now + AUTH_ROW_TTL_MS)).toBeUndefined();
    expect(cachedProjectRow(row.id, now - 1)).toBeUndefined();
  });
});
