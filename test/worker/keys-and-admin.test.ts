/** Internal API keys (shown once, stored hashed, one-way revocation, expiry) and admin access tokens. */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys, internalClient, signUp } from "../helpers/api";

describe("/internal/api-keys", () => {
  it("creates keys shown once in full, then by their last four", async () => {
    const p = await createProjectWithKeys();
    const body = {
      description: "ci",
      expires_at_millis: Date.now() + 3600_000,
      has_publishable_client_key: true,
      has_secret_server_key: true,
      has_super_secret_admin_key: false,
    };
    const created = await call("/internal/api-keys", { ...p.admin, body });
    expect(created.status).toBe(200);
    expect(created.body.publishable_client_key).toMatch(/^pck_[0-9a-hjkmnp-tv-z]{45}$/);
    expect(created.body.secret_server_key).toMatch(/^ssk_[0-9a-hjkmnp-tv-z]{45}$/);
    expect(created.body.super_secret_admin_key).toBeUndefined();
    const read = await call(`/internal/api-keys/${created.body.id}`, p.admin);
    expect(read.body.publishable_client_key).toEqual({ last_four: created.body.publishable_client_key.slice(-4) });
    expect(read.body.secret_server_key).toEqual({ last_four: created.body.secret_server_key.slice(-4) });
    const list = await call("/internal/api-keys", p.admin);
    expect(list.body.items.length).toBe(2);
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM api_key_sets WHERE secret_key_hash = ? OR publishable_key_hash = ?")
      .bind(created.body.secret_server_key, created.body.publishable_client_key)
      .first<{ n: number }>();
    expect(stored?.n).toBe(0);
  });

  it("revocation is one-way and immediately refuses the keys", async () => {
    const p = await createProjectWithKeys();
    expect((await call("/users", p.server)).status).toBe(200);
    const revoked = await call(`/internal/api-keys/${p.keyId}`, { ...p.admin, method: "PATCH", body: { revoked: true } });
    expect(typeof revoked.body.manually_revoked_at_millis).toBe("number");
    expect((await call("/users", p.server)).body.code).toBe("INVALID_SECRET_SERVER_KEY");
    expect((await call("/projects/current", p.client)).body.code).toBe("INVALID_PUBLISHABLE_CLIENT_KEY");
    expect((await call("/projects/current", p.adminKey)).body.code).toBe("INVALID_SUPER_SECRET_ADMIN_KEY");
    const renamed = await call(`/internal/api-keys/${p.keyId}`, { ...p.admin, method: "PATCH", body: { description: "still revoked" } });
    expect(renamed.body).toMatchObject({
      description: "still revoked",
      manually_revoked_at_millis: revoked.body.manually_revoked_at_millis,
    });
    expect((await call(`/internal/api-keys/${p.keyId}`, { ...p.admin, method: "PATCH", body: { revoked: false } })).body.code).toBe(
      "SCHEMA_ERROR",
    );
  });

  it("expired keys are refused", async () => {
    const p = await createProjectWithKeys();
    const created = await call("/internal/api-keys", {
      ...p.admin,
      body: {
        description: "short",
        expires_at_millis: Date.now() + 60_000,
        has_publishable_client_key: false,
        has_secret_server_key: true,
        has_super_secret_admin_key: false,
      },
    });
    const server = { projectId: p.projectId, accessType: "server", secretServerKey: created.body.secret_server_key } as const;
    expect((await call("/users", server)).status).toBe(200);
    expect((await call("/users", { ...server, nowMs: Date.now() + 120_000 })).body.code).toBe("INVALID_SECRET_SERVER_KEY");
  });

  it("keys of one project do not open another", async () => {
    const a = await createProjectWithKeys();
    const b = await createProjectWithKeys();
    const res = await call("/users", { ...b.server, projectId: a.projectId });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "INVALID_SECRET_SERVER_KEY", details: { project_id: a.projectId } });
  });

  it("errors: unknown id, wrong level, no key type", async () => {
    const p = await createProjectWithKeys();
    expect((await call("/internal/api-keys/6f1a4f0e-3b5d-4c1e-9a7b-000000000000", p.admin)).body.code).toBe("API_KEY_NOT_FOUND");
    expect((await call("/internal/api-keys", p.server)).body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
    const none = await call("/internal/api-keys", {
      ...p.admin,
      body: {
        description: "x",
        expires_at_millis: Date.now() + 1000,
        has_publishable_client_key: false,
        has_secret_server_key: false,
        has_super_secret_admin_key: false,
      },
    });
    expect(none.body.code).toBe("SCHEMA_ERROR");
  });
});

describe("admin access tokens", () => {
  it("work for the owner's projects only", async () => {
    const p = await createProjectWithKeys();
    const other = await createProjectWithKeys();
    expect((await call("/internal/projects/current", p.admin)).body.id).toBe(p.projectId);
    const foreign = await call("/internal/projects/current", {
      projectId: other.projectId,
      accessType: "admin",
      adminAccessToken: p.owner.accessToken,
    });
    expect(foreign.status).toBe(401);
    expect(foreign.body.code).toBe("ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");
  });

  it("ignore the admin key beside them, on an admin request", async () => {
    const p = await createProjectWithKeys();
    const res = await call("/internal/projects/current", {
      projectId: p.projectId,
      accessType: "admin",
      adminAccessToken: p.owner.accessToken,
      superSecretAdminKey: "junk",
    });
    expect(res.status).toBe(200);
  });

  // Issue 10: this used to pass as admin (the token decided the access type); a client request
  // now ignores admin credentials, as the reference does, so it stays a client request.
  it("do not elevate a client request", async () => {
    const p = await createProjectWithKeys();
    const res = await call("/internal/projects/current", {
      projectId: p.projectId,
      accessType: "client",
      adminAccessToken: p.owner.accessToken,
      superSecretAdminKey: "junk",
    });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
  });

  it("reject tokens of other projects, garbage and expired ones", async () => {
    const p = await createProjectWithKeys();
    const endUser = await signUp(p.client);
    expect((await call("/internal/projects/current", { ...p.admin, adminAccessToken: endUser.accessToken })).body.code).toBe(
      "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN",
    );
    expect((await call("/internal/projects/current", { ...p.admin, adminAccessToken: "garbage" })).body.code).toBe(
      "UNPARSABLE_ADMIN_ACCESS_TOKEN",
    );
    const expired = await call("/internal/projects/current", { ...p.admin, nowMs: Date.now() + 11 * 60_000 });
    expect(expired.body.code).toBe("ADMIN_ACCESS_TOKEN_EXPIRED");
    expect(typeof expired.body.details.expired_at_millis).toBe("number");
  });

  // As the reference, which decodes admin tokens with anonymous and restricted users disallowed.
  it("an anonymous internal user is not an admin: UNPARSABLE_ADMIN_ACCESS_TOKEN", async () => {
    const p = await createProjectWithKeys();
    const anon = await call("/auth/anonymous/sign-up", { ...internalClient, method: "POST" });
    const res = await call("/internal/projects/current", { ...p.admin, adminAccessToken: anon.body.access_token });
    expect(res.body.code).toBe("UNPARSABLE_ADMIN_ACCESS_TOKEN");
  });
});
