/**
 * The OpenID provider's client registry (issue 30), /internal/oauth-clients: register (the secret
 * answered once, stored as SHA-256), list, read, change, rotate (the old secret stops matching at
 * once), delete (with the client's consents, grants and refresh tokens, in one batch), the rules on
 * every field with the field named in OAUTH_CLIENT_INVALID, the events, and who may call.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../worker/crypto/hash";
import { clientSecretMatches } from "../../worker/services/oauth-provider/client-secret";
import { call, createProjectWithKeys, signUp } from "../helpers/api";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;
type Client = Record<string, unknown> & { client_id: string; client_secret?: string | null; secret_prefix: string | null };

const base = { name: "Acme Reader", client_type: "confidential", redirect_uris: ["https://acme.example/callback"] };

async function create(p: Project, body: Record<string, unknown> = base) {
  return call("/internal/oauth-clients", { ...p.admin, body });
}

async function created(p: Project, body: Record<string, unknown> = base): Promise<Client> {
  const res = await create(p, body);
  expect(res.status, res.text).toBe(201);
  return res.body as Client;
}

const clientPath = (id: string) => `/internal/oauth-clients/${encodeURIComponent(id)}`;

async function eventsOf(p: Project, type: string) {
  const res = await call(`/internal/events?type=${type}`, p.admin);
  expect(res.status, res.text).toBe(200);
  return res.body.items as { type: string; data: Record<string, unknown>; actor: { type: string } }[];
}

async function withCustomScope(p: Project) {
  const res = await call("/internal/config/override/environment", {
    ...p.admin,
    method: "PATCH",
    body: {
      config_override_string: JSON.stringify({ "doorman.oauthProvider.scopes": { "docs:read": { description: "Read your documents" } } }),
    },
  });
  expect(res.status, res.text).toBe(200);
}

const storedRow = (projectId: string, clientId: string) =>
  env.DB.prepare("SELECT * FROM oauth_clients WHERE project_id = ? AND client_id = ?")
    .bind(projectId, clientId)
    .first<{ secret_hash: string | null; secret_prefix: string | null; updated_at: number; name: string }>();

describe("OAuth clients: register, read, list", () => {
  it("a confidential client gets a dmc_ id and a dmcs_ secret shown once, stored as its SHA-256, and an event", async () => {
    const p = await createProjectWithKeys();
    const client = await created(p);
    expect(client.client_id).toMatch(/^dmc_[0-9a-z]{24}$/);
    expect(client.client_secret).toMatch(/^dmcs_[0-9a-z]{43}$/);
    expect(client).toMatchObject({
      source: "console",
      name: "Acme Reader",
      client_type: "confidential",
      token_endpoint_auth_method: "client_secret_basic",
      redirect_uris: ["https://acme.example/callback"],
      allowed_scopes: null,
      has_jwks: false,
      secret_prefix: (client.client_secret as string).slice(0, 9),
    });
    const row = await storedRow(p.projectId, client.client_id);
    expect(row!.secret_hash).toBe(await sha256Hex(client.client_secret as string));
    expect(JSON.stringify(row)).not.toContain(client.client_secret);

    const read = await call(clientPath(client.client_id), p.admin);
    expect(read.status, read.text).toBe(200);
    expect(read.text).not.toContain(client.client_secret);
    expect(read.body).not.toHaveProperty("client_secret");
    const list = await call("/internal/oauth-clients", p.admin);
    expect(list.body).toMatchObject({ is_paginated: false, items: [expect.objectContaining({ client_id: client.client_id })] });
    expect(list.text).not.toContain(client.client_secret);

    const events = await eventsOf(p, "oauth_client.created");
    expect(events).toEqual([
      expect.objectContaining({
        data: { client_id: client.client_id, source: "console" },
        actor: expect.objectContaining({ type: "admin" }),
      }),
    ]);
  });

  it("a public client authenticates with none and has no secret; private_key_jwt has keys and no secret", async () => {
    const p = await createProjectWithKeys();
    const pub = await created(p, { ...base, client_type: "public", redirect_uris: ["http://127.0.0.1:8123/callback"] });
    expect(pub).toMatchObject({ client_type: "public", token_endpoint_auth_method: "none", client_secret: null, secret_prefix: null });
    const jwt = await created(p, {
      ...base,
      token_endpoint_auth_method: "private_key_jwt",
      jwks: {
        keys: [
          { kty: "EC", crv: "P-256", x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0" },
        ],
      },
    });
    expect(jwt).toMatchObject({ token_endpoint_auth_method: "private_key_jwt", has_jwks: true, client_secret: null, secret_prefix: null });
    expect(await storedRow(p.projectId, jwt.client_id)).toMatchObject({ secret_hash: null });
  });

  it("accepts the redirect URIs native apps use: loopback http (RFC 8252 §7.3) and reverse-domain schemes (§7.1)", async () => {
    const p = await createProjectWithKeys();
    const uris = [
      "https://app.example.com/cb?x=1",
      "http://localhost:8080/callback",
      "http://127.0.0.1/callback",
      "http://[::1]:3000/cb",
      "com.example.app:/oauth2redirect",
    ];
    const client = await created(p, { ...base, client_type: "public", redirect_uris: [...uris, uris[0]] });
    expect(client.redirect_uris).toEqual(uris);
  });

  it("allowed_scopes are the standard scopes and the project's custom ones", async () => {
    const p = await createProjectWithKeys();
    const refused = await create(p, { ...base, allowed_scopes: ["openid", "docs:read"] });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: "OAUTH_CLIENT_INVALID", details: { field: "allowed_scopes" } });
    expect(refused.body.details.message).toContain("docs:read");
    await withCustomScope(p);
    const client = await created(p, { ...base, allowed_scopes: ["openid", "docs:read", "openid"] });
    expect(client.allowed_scopes).toEqual(["openid", "docs:read"]);
  });
});

describe("OAuth clients: every rule names its field", () => {
  const ec = {
    kty: "EC",
    crv: "P-256",
    x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
    y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
  };
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ["an empty name", { name: "  " }, "name", /needs a name/],
    ["a long name", { name: "x".repeat(101) }, "name", /at most 100/],
    ["a control character in the name", { name: "Acme\u202eReader\u0007" }, "name", /control/],
    [
      "a public client with a secret method",
      { client_type: "public", token_endpoint_auth_method: "client_secret_basic" },
      "token_endpoint_auth_method",
      /public client/,
    ],
    ["a confidential client with none", { token_endpoint_auth_method: "none" }, "token_endpoint_auth_method", /confidential/],
    ["no redirect URI", { redirect_uris: [] }, "redirect_uris", /at least one/],
    ["21 redirect URIs", { redirect_uris: Array.from({ length: 21 }, (_, i) => `https://a.example/${i}`) }, "redirect_uris", /at most 20/],
    ["a wildcard", { redirect_uris: ["https://*.example.com/cb"] }, "redirect_uris", /wildcard/],
    ["a fragment", { redirect_uris: ["https://a.example/cb#x"] }, "redirect_uris", /fragment/],
    ["a relative URI", { redirect_uris: ["/callback"] }, "redirect_uris", /absolute/],
    ["http on a network host", { redirect_uris: ["http://app.example.com/cb"] }, "redirect_uris", /loopback/],
    ["http on a private address", { redirect_uris: ["http://192.168.1.5/cb"] }, "redirect_uris", /loopback/],
    ["a javascript: URI", { redirect_uris: ["javascript:alert(1)"] }, "redirect_uris", /private-use scheme/],
    ["a scheme without a dot", { redirect_uris: ["myapp:/callback"] }, "redirect_uris", /reverse-domain/],
    ["credentials in the URI", { redirect_uris: ["https://good.example@evil.example/cb"] }, "redirect_uris", /user name/],
    ["a too-long URI", { redirect_uris: [`https://a.example/${"x".repeat(1100)}`] }, "redirect_uris", /longer than 1024/],
    ["an empty scope list", { allowed_scopes: [] }, "allowed_scopes", /at least one/],
    ["an unknown scope", { allowed_scopes: ["admin"] }, "allowed_scopes", /admin is not a scope/],
    ["an http logo", { logo_uri: "http://acme.example/logo.png" }, "logo_uri", /https/],
    ["an SVG data logo", { logo_uri: "data:image/svg+xml;base64,PHN2Zz4=" }, "logo_uri", /PNG, JPEG/],
    ["a large data logo", { logo_uri: `data:image/png;base64,${"A".repeat(17_000)}` }, "logo_uri", /at most 16384/],
    ["an http home page", { client_uri: "http://acme.example" }, "client_uri", /https/],
    ["a relative privacy policy", { policy_uri: "/privacy" }, "policy_uri", /absolute https/],
    ["an ftp terms of service", { tos_uri: "ftp://acme.example/tos" }, "tos_uri", /https/],
    ["private_key_jwt without keys", { token_endpoint_auth_method: "private_key_jwt" }, "jwks", /needs the client's public keys/],
    [
      "both jwks and jwks_uri",
      { token_endpoint_auth_method: "private_key_jwt", jwks: { keys: [ec] }, jwks_uri: "https://acme.example/jwks" },
      "jwks",
      /not both/,
    ],
    [
      "a private key",
      { token_endpoint_auth_method: "private_key_jwt", jwks: { keys: [{ ...ec, d: "secret" }] } },
      "jwks",
      /private member "d"/,
    ],
    [
      "a symmetric key",
      { token_endpoint_auth_method: "private_key_jwt", jwks: { keys: [{ kty: "oct", k: "c2VjcmV0" }] } },
      "jwks",
      /private member "k"/,
    ],
    [
      "an RSA key without n",
      { token_endpoint_auth_method: "private_key_jwt", jwks: { keys: [{ kty: "RSA", e: "AQAB" }] } },
      "jwks",
      /missing "n"/,
    ],
    ["an empty key set", { token_endpoint_auth_method: "private_key_jwt", jwks: { keys: [] } }, "jwks", /at least one key/],
    [
      "a JWKS URI that is not http(s)",
      { token_endpoint_auth_method: "private_key_jwt", jwks_uri: "ftp://acme.example/jwks" },
      "jwks_uri",
      /https/,
    ],
    ["keys on a secret client", { jwks: { keys: [ec] } }, "jwks", /only for clients that authenticate with private_key_jwt/],
  ];

  it.each(cases)("refuses %s", async (_what, change, field, message) => {
    const p = await sharedProject();
    const res = await create(p, { ...base, ...change });
    expect(res.status, res.text).toBe(400);
    expect(res.headers.get("x-stack-known-error")).toBe("OAUTH_CLIENT_INVALID");
    expect(res.body.details.field).toBe(field);
    expect(res.body.details.message).toMatch(message);
    expect(res.body.error).toContain(field);
  });

  it("wrong types and huge values are SCHEMA_ERROR, never a 500", async () => {
    const p = await sharedProject();
    for (const body of [
      { ...base, client_type: "private" },
      { ...base, redirect_uris: "https://a.example" },
      { ...base, name: "x".repeat(300) },
      { ...base, extra: 1 },
    ]) {
      const res = await create(p, body);
      expect(res.status, res.text).toBe(400);
      expect(res.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR");
    }
  });
});

let shared: Promise<Project> | undefined;
const sharedProject = () => {
  shared ??= createProjectWithKeys();
  return shared;
};

describe("OAuth clients: change, rotate, delete", () => {
  it("PATCH changes the given fields, checks the result, and records which fields changed", async () => {
    const p = await createProjectWithKeys();
    const client = await created(p, { ...base, logo_uri: "https://acme.example/logo.png" });
    const res = await call(clientPath(client.client_id), {
      ...p.admin,
      method: "PATCH",
      body: {
        name: "Acme Reader 2",
        redirect_uris: ["https://acme.example/cb2"],
        logo_uri: null,
        token_endpoint_auth_method: "client_secret_post",
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      name: "Acme Reader 2",
      redirect_uris: ["https://acme.example/cb2"],
      logo_uri: null,
      token_endpoint_auth_method: "client_secret_post",
      // Switching between the two secret methods keeps the secret.
      secret_prefix: client.secret_prefix,
    });
    expect(await eventsOf(p, "oauth_client.updated")).toEqual([
      expect.objectContaining({
        data: { client_id: client.client_id, fields: ["name", "token_endpoint_auth_method", "redirect_uris", "logo_uri"] },
      }),
    ]);

    const bad = await call(clientPath(client.client_id), {
      ...p.admin,
      method: "PATCH",
      body: { redirect_uris: ["http://acme.example/cb"] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details.field).toBe("redirect_uris");
    const toJwt = await call(clientPath(client.client_id), {
      ...p.admin,
      method: "PATCH",
      body: { token_endpoint_auth_method: "private_key_jwt" },
    });
    expect(toJwt.status).toBe(400);
    expect(toJwt.body.details).toMatchObject({
      field: "token_endpoint_auth_method",
      message: expect.stringMatching(/register a new client/),
    });
    const typed = await call(clientPath(client.client_id), { ...p.admin, method: "PATCH", body: { client_type: "public" } });
    expect(typed.status).toBe(400);
    expect(typed.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR");
    expect((await call(clientPath(client.client_id), p.admin)).body.redirect_uris).toEqual(["https://acme.example/cb2"]);
    // Refusals write no event.
    expect(await eventsOf(p, "oauth_client.updated")).toHaveLength(1);

    const missing = await call(clientPath("dmc_nope"), { ...p.admin, method: "PATCH", body: { name: "x" } });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: "OAUTH_CLIENT_NOT_FOUND", details: { client_id: "dmc_nope" } });
  });

  it("concurrent changes of one client both land (compare-and-set, tried again)", async () => {
    const p = await createProjectWithKeys();
    const client = await created(p);
    const [a, b] = await Promise.all([
      call(clientPath(client.client_id), { ...p.admin, method: "PATCH", body: { name: "Renamed" } }),
      call(clientPath(client.client_id), { ...p.admin, method: "PATCH", body: { policy_uri: "https://acme.example/privacy" } }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const read = await call(clientPath(client.client_id), p.admin);
    expect(read.body).toMatchObject({ name: "Renamed", policy_uri: "https://acme.example/privacy" });
    expect(await eventsOf(p, "oauth_client.updated")).toHaveLength(2);
  });

  it("rotating answers a new secret once; the old one stops matching at once", async () => {
    const p = await createProjectWithKeys();
    const client = await created(p);
    const old = client.client_secret as string;
    const res = await call(`${clientPath(client.client_id)}/secret`, { ...p.admin, method: "POST", body: {} });
    expect(res.status, res.text).toBe(200);
    const fresh = res.body.client_secret as string;
    expect(fresh).toMatch(/^dmcs_[0-9a-z]{43}$/);
    expect(fresh).not.toBe(old);
    expect(res.body.secret_prefix).toBe(fresh.slice(0, 9));
    const row = (await storedRow(p.projectId, client.client_id))!;
    const asRow = { secretHash: row.secret_hash };
    expect(await clientSecretMatches(asRow, fresh)).toBe(true);
    expect(await clientSecretMatches(asRow, old)).toBe(false);
    expect(await eventsOf(p, "oauth_client.secret_rotated")).toEqual([expect.objectContaining({ data: { client_id: client.client_id } })]);

    const pub = await created(p, { ...base, client_type: "public" });
    const none = await call(`${clientPath(pub.client_id)}/secret`, { ...p.admin, method: "POST", body: {} });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ code: "OAUTH_CLIENT_INVALID", details: { field: "token_endpoint_auth_method" } });
    expect((await call(`${clientPath("dmc_gone")}/secret`, { ...p.admin, method: "POST", body: {} })).status).toBe(404);
    expect(await eventsOf(p, "oauth_client.secret_rotated")).toHaveLength(1);
  });

  it("DELETE takes the client's consents, grants and refresh tokens with it, and no other client's", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const [gone, kept] = [await created(p), await created(p, { ...base, name: "Kept" })];
    const now = Date.now();
    const seed = (clientId: string, tag: string) => [
      env.DB.prepare(
        "INSERT INTO oauth_consents (project_id, user_id, client_id, scope, created_at, updated_at) VALUES (?, ?, ?, 'openid', ?, ?)",
      ).bind(p.projectId, user.userId, clientId, now, now),
      env.DB.prepare(
        "INSERT INTO oauth_grants (id, project_id, client_id, user_id, scope, auth_time, created_at, last_used_at) VALUES (?, ?, ?, ?, 'openid', ?, ?, ?)",
      ).bind(`grant-${tag}`, p.projectId, clientId, user.userId, now, now, now),
      env.DB.prepare("INSERT INTO oauth_refresh_tokens (token_hash, grant_id, project_id, created_at) VALUES (?, ?, ?, ?)").bind(
        `hash-${tag}`,
        `grant-${tag}`,
        p.projectId,
        now,
      ),
    ];
    const tag = crypto.randomUUID();
    await env.DB.batch([...seed(gone.client_id, `gone-${tag}`), ...seed(kept.client_id, `kept-${tag}`)]);

    const res = await call(clientPath(gone.client_id), { ...p.admin, method: "DELETE" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    const count = async (table: string, column: string, value: string) =>
      (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${column} = ?`).bind(value).first<{ n: number }>())!.n;
    expect(await storedRow(p.projectId, gone.client_id)).toBeNull();
    expect(await count("oauth_consents", "client_id", gone.client_id)).toBe(0);
    expect(await count("oauth_grants", "client_id", gone.client_id)).toBe(0);
    expect(await count("oauth_refresh_tokens", "token_hash", `hash-gone-${tag}`)).toBe(0);
    expect(await count("oauth_consents", "client_id", kept.client_id)).toBe(1);
    expect(await count("oauth_grants", "client_id", kept.client_id)).toBe(1);
    expect(await count("oauth_refresh_tokens", "token_hash", `hash-kept-${tag}`)).toBe(1);
    expect(await eventsOf(p, "oauth_client.deleted")).toEqual([expect.objectContaining({ data: { client_id: gone.client_id } })]);

    const again = await call(clientPath(gone.client_id), { ...p.admin, method: "DELETE" });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe("OAUTH_CLIENT_NOT_FOUND");
    expect(await eventsOf(p, "oauth_client.deleted")).toHaveLength(1);
  });

  it("a cached metadata document is addressed by its URL (percent-encoded), read and deleted, not edited", async () => {
    const p = await createProjectWithKeys();
    const url = "https://mcp-client.example/oauth/client.json";
    const now = Date.now();
    await env.DB.prepare(
      "INSERT INTO oauth_clients (project_id, client_id, source, name, client_type, token_endpoint_auth_method, redirect_uris, metadata_expires_at, created_at, updated_at) VALUES (?, ?, 'metadata_document', 'Doc client', 'public', 'none', ?, ?, ?, ?)",
    )
      .bind(p.projectId, url, JSON.stringify(["http://127.0.0.1:9000/cb"]), now + 3600_000, now, now)
      .run();
    const read = await call(clientPath(url), p.admin);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toMatchObject({ client_id: url, source: "metadata_document", name: "Doc client" });
    const edit = await call(clientPath(url), { ...p.admin, method: "PATCH", body: { name: "Mine now" } });
    expect(edit.status).toBe(400);
    expect(edit.body.details).toMatchObject({ field: "client_id", message: expect.stringMatching(/metadata document/) });
    expect((await call(clientPath(url), { ...p.admin, method: "DELETE" })).status).toBe(200);
    expect((await call(clientPath(url), p.admin)).status).toBe(404);
  });
});

describe("OAuth clients: who may call", () => {
  it("admin only; another project's admin sees none of them", async () => {
    const [p, other] = await Promise.all([createProjectWithKeys(), createProjectWithKeys()]);
    const client = await created(p);
    for (const level of [p.client, p.server]) {
      const list = await call("/internal/oauth-clients", level);
      expect(list.status).toBe(401);
      expect(list.headers.get("x-stack-known-error")).toBe("INSUFFICIENT_ACCESS_TYPE");
      expect((await call("/internal/oauth-clients", { ...level, body: base })).status).toBe(401);
    }
    expect((await call(clientPath(client.client_id), p.adminKey)).status).toBe(200);
    expect((await call(clientPath(client.client_id), other.admin)).status).toBe(404);
    expect((await call("/internal/oauth-clients", other.admin)).body.items).toEqual([]);
    expect((await call(clientPath(client.client_id), { ...other.admin, method: "DELETE" })).status).toBe(404);
    expect((await call(`${clientPath(client.client_id)}/secret`, { ...other.admin, method: "POST", body: {} })).status).toBe(404);
    expect(await storedRow(p.projectId, client.client_id)).not.toBeNull();
  });
});
