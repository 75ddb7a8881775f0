/**
 * RFC 7591 dynamic client registration at {issuer}/oauth/register (issue 30): off unless the project
 * turns it on (403 access_denied), what an MCP client sends (a public client), the RFC defaults
 * (client_secret_basic with a secret), RFC 7591 errors (never the known-error catalogue), CORS, the
 * per-address rate limit, and the cap of dynamic clients per project, also under concurrent requests.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DYNAMIC_CLIENT_CAP } from "../../worker/services/oauth-provider/client-registration";
import { call, createProjectWithKeys } from "../helpers/api";
import { workerFetch } from "../helpers/worker-fetch";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

async function configure(p: Project, override: Record<string, unknown>) {
  const res = await call("/internal/config/override/environment", {
    ...p.admin,
    method: "PATCH",
    body: { config_override_string: JSON.stringify(override) },
  });
  expect(res.status, res.text).toBe(200);
}

async function openProject(extra: Record<string, unknown> = {}) {
  const p = await createProjectWithKeys();
  await configure(p, { "doorman.oauthProvider.dynamicRegistration": true, ...extra });
  return p;
}

let ipCounter = 0;
/** Each call from its own address unless told, so the per-address limit only bites where a test wants it. */
const register = (projectId: string, body: unknown, ip = `203.0.113.${++ipCounter % 250}:${crypto.randomUUID()}`) =>
  call(`/projects/${projectId}/oauth/register`, { body, headers: { "cf-connecting-ip": ip } });

/** What the MCP TypeScript SDK sends (client/auth.ts registerClient with an OAuthClientProvider's clientMetadata). */
const mcpClient = {
  client_name: "Example MCP Client",
  redirect_uris: ["http://localhost:33418/callback"],
  grant_types: ["authorization_code", "refresh_token"],
  response_types: ["code"],
  token_endpoint_auth_method: "none",
  scope: "openid profile offline_access",
};

const expectRfcError = (res: Awaited<ReturnType<typeof call>>, status: number, error: string) => {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get("content-type")).toContain("application/json");
  expect(res.headers.get("x-stack-known-error")).toBeNull();
  expect(res.body).toEqual({ error, error_description: expect.any(String) });
};

describe("dynamic client registration: on and off", () => {
  it("is off by default: 403 access_denied, RFC 7591 JSON", async () => {
    const p = await createProjectWithKeys();
    const res = await register(p.projectId, mcpClient);
    expectRfcError(res, 403, "access_denied");
    expect(res.body.error_description).toMatch(/turned off/);
    expect((await call("/internal/oauth-clients", p.admin)).body.items).toEqual([]);
  });

  it("stays closed when the provider itself is off, and answers 404 for an unknown project", async () => {
    const p = await openProject({ "doorman.oauthProvider.enabled": false });
    expectRfcError(await register(p.projectId, mcpClient), 403, "access_denied");
    expectRfcError(await register("no-such-project", mcpClient), 404, "invalid_request");
  });

  it("registers what an MCP client sends: a public client, 201 with the metadata as registered and an event", async () => {
    const p = await openProject();
    const before = Math.floor(Date.now() / 1000);
    const res = await register(p.projectId, { ...mcpClient, software_id: "example", unknown_member: { nested: true } });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toEqual({
      client_id: expect.stringMatching(/^dmc_[0-9a-z]{24}$/),
      client_id_issued_at: expect.any(Number),
      client_name: "Example MCP Client",
      redirect_uris: ["http://localhost:33418/callback"],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      scope: "openid profile offline_access",
    });
    expect(res.body.client_id_issued_at).toBeGreaterThanOrEqual(before - 1);
    const listed = await call(`/internal/oauth-clients/${res.body.client_id}`, p.admin);
    expect(listed.body).toMatchObject({ source: "dynamic", client_type: "public", secret_prefix: null });
    const events = await call("/internal/events?type=oauth_client.created", p.admin);
    expect(events.body.items).toEqual([expect.objectContaining({ data: { client_id: res.body.client_id, source: "dynamic" } })]);
  });

  it("defaults to client_secret_basic (RFC 7591 §2) with a secret that does not expire; scopes it does not offer are dropped", async () => {
    const p = await openProject();
    const res = await register(p.projectId, { redirect_uris: ["https://app.example.com/cb"], scope: "openid calendar.read email" });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      token_endpoint_auth_method: "client_secret_basic",
      client_secret: expect.stringMatching(/^dmcs_[0-9a-z]{43}$/),
      client_secret_expires_at: 0,
      grant_types: ["authorization_code"],
      response_types: ["code"],
      scope: "openid email",
      // No client_name: the redirect URI's host stands in, so the consent page names something true.
      client_name: "app.example.com",
    });
    const row = await env.DB.prepare("SELECT secret_hash, source, client_type FROM oauth_clients WHERE client_id = ?")
      .bind(res.body.client_id)
      .first<{ secret_hash: string; source: string; client_type: string }>();
    expect(row).toMatchObject({ source: "dynamic", client_type: "confidential" });
    expect(row!.secret_hash).not.toContain(res.body.client_secret);
  });
});

describe("dynamic client registration: RFC 7591 errors", () => {
  const cases: [string, unknown, string, RegExp][] = [
    [
      "a wildcard redirect URI",
      { ...mcpClient, redirect_uris: ["https://*.example.com/cb"] },
      "invalid_redirect_uri",
      /redirect_uris: .*wildcard/,
    ],
    [
      "an http redirect URI on a network host",
      { ...mcpClient, redirect_uris: ["http://evil.example/cb"] },
      "invalid_redirect_uri",
      /loopback/,
    ],
    ["no redirect URI", { ...mcpClient, redirect_uris: [] }, "invalid_redirect_uri", /at least one/],
    ["missing redirect_uris", { client_name: "x" }, "invalid_client_metadata", /redirect_uris/],
    ["redirect_uris as a string", { ...mcpClient, redirect_uris: "https://a.example/cb" }, "invalid_client_metadata", /redirect_uris/],
    [
      "the implicit grant",
      { ...mcpClient, grant_types: ["implicit"] },
      "invalid_client_metadata",
      /grant_types: implicit is not supported/,
    ],
    [
      "no authorization_code grant",
      { ...mcpClient, grant_types: ["refresh_token"] },
      "invalid_client_metadata",
      /must include authorization_code/,
    ],
    ["the token response type", { ...mcpClient, response_types: ["token"] }, "invalid_client_metadata", /response_types/],
    [
      "client_secret_jwt",
      { ...mcpClient, token_endpoint_auth_method: "client_secret_jwt" },
      "invalid_client_metadata",
      /token_endpoint_auth_method/,
    ],
    ["only unknown scopes", { ...mcpClient, scope: "admin root" }, "invalid_client_metadata", /scope: none of the scopes/],
    ["an http logo", { ...mcpClient, logo_uri: "http://app.example/logo.png" }, "invalid_client_metadata", /logo_uri: .*https/],
    ["a long client_name", { ...mcpClient, client_name: "n".repeat(150) }, "invalid_client_metadata", /client_name: .*at most 100/],
    ["private_key_jwt without keys", { ...mcpClient, token_endpoint_auth_method: "private_key_jwt" }, "invalid_client_metadata", /jwks/],
    ["a JSON array", [mcpClient], "invalid_client_metadata", /body/],
  ];

  it.each(cases)("refuses %s", async (_what, body, error, description) => {
    const res = await register((await shared()).projectId, body);
    expectRfcError(res, 400, error);
    expect(res.body.error_description).toMatch(description);
  });

  it("a body that is not JSON is invalid_client_metadata too", async () => {
    const res = await call(`/projects/${(await shared()).projectId}/oauth/register`, {
      rawBody: "{not json",
      contentType: "application/json",
    });
    expectRfcError(res, 400, "invalid_client_metadata");
  });
});

let sharedProject: Promise<Project> | undefined;
const shared = () => {
  sharedProject ??= openProject();
  return sharedProject;
};

describe("dynamic client registration: CORS, rate limit, cap", () => {
  it("answers any origin, preflight included (browser-based MCP clients register from their page)", async () => {
    const p = await shared();
    const url = `http://localhost/api/v1/projects/${p.projectId}/oauth/register`;
    const preflight = await workerFetch(url, {
      method: "OPTIONS",
      headers: {
        origin: "https://inspector.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("content-type");
    const res = await workerFetch(url, {
      method: "POST",
      headers: { origin: "https://inspector.example", "content-type": "application/json", "cf-connecting-ip": "198.51.100.77" },
      body: JSON.stringify(mcpClient),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("limits registrations per address (OAUTH_CLIENT_REGISTER_PER_IP, 20 an hour): the 21st is a 429 with Retry-After", async () => {
    const p = await shared();
    const ip = `192.0.2.${Math.floor(Math.random() * 250)}-${crypto.randomUUID()}`;
    for (let i = 0; i < 20; i++) expect((await register(p.projectId, mcpClient, ip)).status).toBe(201);
    const limited = await register(p.projectId, mcpClient, ip);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await register(p.projectId, mcpClient)).status).toBe(201);
  });

  it(`stops at ${DYNAMIC_CLIENT_CAP} dynamic clients per project: exactly one of five racing registrations takes the last place`, async () => {
    const p = await openProject();
    const now = Date.now();
    const insert = env.DB.prepare(
      "INSERT INTO oauth_clients (project_id, client_id, source, name, client_type, token_endpoint_auth_method, redirect_uris, created_at, updated_at) VALUES (?, ?, 'dynamic', 'filler', 'public', 'none', '[\"https://a.example/cb\"]', ?, ?)",
    );
    await env.DB.batch(Array.from({ length: DYNAMIC_CLIENT_CAP - 1 }, (_, i) => insert.bind(p.projectId, `dmc_filler${i}`, now, now)));
    // Console clients do not count toward the cap of open registration.
    await call("/internal/oauth-clients", {
      ...p.admin,
      body: { name: "Console app", client_type: "public", redirect_uris: ["https://c.example/cb"] },
    });

    const racing = await Promise.all(Array.from({ length: 5 }, () => register(p.projectId, mcpClient)));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 403, 403, 403, 403]);
    const refused = racing.find((r) => r.status === 403)!;
    expectRfcError(refused, 403, "access_denied");
    expect(refused.body.error_description).toContain(String(DYNAMIC_CLIENT_CAP));
    const count = await env.DB.prepare("SELECT count(*) AS n FROM oauth_clients WHERE project_id = ? AND source = 'dynamic'")
      .bind(p.projectId)
      .first<{ n: number }>();
    expect(count!.n).toBe(DYNAMIC_CLIENT_CAP);
    const events = await call("/internal/events?type=oauth_client.created&limit=100", p.admin);
    expect(events.body.items.filter((e: { data: { source: string } }) => e.data.source === "dynamic")).toHaveLength(1);

    // An owner deleting one makes room again.
    expect((await call("/internal/oauth-clients/dmc_filler0", { ...p.admin, method: "DELETE" })).status).toBe(200);
    expect((await register(p.projectId, mcpClient)).status).toBe(201);
  });
});
