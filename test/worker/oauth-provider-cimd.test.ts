/**
 * Client ID metadata documents (issue 30; draft-ietf-oauth-client-id-metadata-document, MCP 2025-11)
 * in resolveClient: a real local server (test/client-metadata-server.mjs) serves the documents, which
 * a development deployment may fetch over loopback http. A good document becomes the client and is
 * cached for its max-age within [5 min, 24 h]; a hanging server, a 10 MB body, a redirect, non-JSON,
 * a client_id mismatch and a document with a secret are each refused in bounded time while
 * /api/v1/health keeps answering; a refusal is remembered for a minute only; racing resolutions of
 * one URL all succeed; the cache stays under its cap.
 */
import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import type { ProjectRow } from "../../worker/db/queries/projects";
import { makeDeps } from "../../worker/services/deps";
import {
  documentTtlSeconds,
  METADATA_DOCUMENT_CAP,
  metadataDocumentUrl,
  resolveMetadataDocumentClient,
} from "../../worker/services/oauth-provider/client-metadata";
import { resolveClient } from "../../worker/services/oauth-provider/clients";
import { loadProject } from "../../worker/services/seed";
import { call, createProjectWithKeys } from "../helpers/api";
import { withHealthPolls } from "../helpers/health";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

const MINUTE = 60_000;
const origin = () => `http://127.0.0.1:${inject("documentServerPort")}`;

/** A document on the local server, under a name of its own. */
function doc(tag: string) {
  const name = `${tag}-${crypto.randomUUID()}`;
  const url = `${origin()}/docs/${name}`;
  const control = `${origin()}/control/${name}`;
  return {
    url,
    /** What the server answers for this document. */
    serve: (config: { body?: unknown; status?: number; headers?: Record<string, string>; mode?: string }) =>
      fetch(control, { method: "PUT", body: JSON.stringify(config) }).then((r) => r.text()),
    requests: async () => ((await (await fetch(control)).json()) as { requests: number }).requests,
    /** A valid document for this URL, with `extra` laid over it. */
    good: (extra: Record<string, unknown> = {}) => ({
      client_id: url,
      client_name: "Docs Agent",
      redirect_uris: ["http://127.0.0.1:7777/callback"],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      ...extra,
    }),
  };
}

const depsAt = (nowMs: number) => makeDeps(env, { origin: "http://localhost", nowMs });

async function cimdProject(on = true): Promise<{ p: Project; project: ProjectRow }> {
  const p = await createProjectWithKeys();
  const res = await call("/internal/config/override/environment", {
    ...p.admin,
    method: "PATCH",
    body: { config_override_string: JSON.stringify({ "doorman.oauthProvider.clientIdMetadataDocuments": on }) },
  });
  expect(res.status, res.text).toBe(200);
  return { p, project: (await loadProject(depsAt(Date.now()), p.projectId))! };
}

const storedRow = (projectId: string, clientId: string) =>
  env.DB.prepare("SELECT * FROM oauth_clients WHERE project_id = ? AND client_id = ?")
    .bind(projectId, clientId)
    .first<{ source: string; name: string; metadata_expires_at: number; client_type: string }>();

describe("CIMD: which client ids are document URLs", () => {
  it("https with a path, written canonically, without fragment or credentials; loopback http only in development", () => {
    const dev = { development: true };
    const prod = { development: false };
    expect(metadataDocumentUrl("https://app.example.com/oauth/client.json", prod)?.href).toBe("https://app.example.com/oauth/client.json");
    expect(metadataDocumentUrl("https://app.example.com/client?v=1", prod)).not.toBeNull();
    for (const id of [
      "dmc_abc",
      "https://app.example.com",
      "https://app.example.com/",
      "https://app.example.com/a#frag",
      "https://user:pw@app.example.com/a",
      "https://APP.example.com/a",
      "https://app.example.com:443/a",
      "https://app.example.com/a/../b",
      "http://app.example.com/client.json",
      "http://127.0.0.1:8080/client.json",
    ])
      expect(metadataDocumentUrl(id, prod), id).toBeNull();
    expect(metadataDocumentUrl("http://127.0.0.1:8080/client.json", dev)).not.toBeNull();
    expect(metadataDocumentUrl("http://localhost:8080/client.json", dev)).not.toBeNull();
    expect(metadataDocumentUrl("http://10.0.0.5/client.json", dev)).toBeNull();
  });

  it("caches for the document's max-age within [5 min, 24 h], an hour without one, the minimum for no-store", () => {
    expect(documentTtlSeconds(null)).toBe(3600);
    expect(documentTtlSeconds("public, max-age=7200")).toBe(7200);
    expect(documentTtlSeconds("max-age=10")).toBe(300);
    expect(documentTtlSeconds("max-age=9999999")).toBe(86_400);
    expect(documentTtlSeconds("no-store")).toBe(300);
    expect(documentTtlSeconds("private, no-cache")).toBe(300);
    expect(documentTtlSeconds("must-revalidate")).toBe(3600);
  });
});

describe("CIMD: a good document", () => {
  it("becomes a public client, cached as its row until its max-age; then it is fetched again", async () => {
    const { p, project } = await cimdProject();
    const d = doc("good");
    await d.serve({
      body: d.good({ logo_uri: "https://agent.example/logo.png", scope: "openid profile unknown" }),
      headers: { "cache-control": "max-age=600" },
    });
    const t0 = Date.now();
    const client = await resolveClient(depsAt(t0), project, d.url);
    expect(client).toMatchObject({
      clientId: d.url,
      source: "metadata_document",
      name: "Docs Agent",
      clientType: "public",
      tokenEndpointAuthMethod: "none",
      redirectUris: ["http://127.0.0.1:7777/callback"],
      allowedScopes: ["openid", "profile"],
      logoUri: "https://agent.example/logo.png",
      secretHash: null,
    });
    const row = await storedRow(p.projectId, d.url);
    expect(row).toMatchObject({ source: "metadata_document", name: "Docs Agent" });
    expect(row!.metadata_expires_at).toBe(t0 + 600_000);

    // Within its max-age: the cached row, no request.
    expect((await resolveClient(depsAt(t0 + 9 * MINUTE), project, d.url))?.name).toBe("Docs Agent");
    expect(await d.requests()).toBe(1);
    // After it: fetched again, and the change is cached.
    await d.serve({ body: d.good({ client_name: "Docs Agent v2" }) });
    expect((await resolveClient(depsAt(t0 + 11 * MINUTE), project, d.url))?.name).toBe("Docs Agent v2");
    expect(await d.requests()).toBe(2);
    const refreshed = await storedRow(p.projectId, d.url);
    expect(refreshed).toMatchObject({ name: "Docs Agent v2", metadata_expires_at: t0 + 11 * MINUTE + 3600_000 });
    // The owner sees it in the registry, as a document's client.
    const listed = await call("/internal/oauth-clients", p.admin);
    expect(listed.body.items).toEqual([expect.objectContaining({ client_id: d.url, source: "metadata_document", name: "Docs Agent v2" })]);
  });

  it("private_key_jwt with a JWKS URI is a confidential client without a secret", async () => {
    const { project } = await cimdProject();
    const d = doc("jwt");
    await d.serve({ body: d.good({ token_endpoint_auth_method: "private_key_jwt", jwks_uri: `${origin()}/docs/keys` }) });
    expect(await resolveClient(depsAt(Date.now()), project, d.url)).toMatchObject({
      clientType: "confidential",
      tokenEndpointAuthMethod: "private_key_jwt",
      jwksUri: `${origin()}/docs/keys`,
      secretHash: null,
    });
  });

  it("nothing is fetched while the project has documents off, its cached ones stop answering too, and a production-mode project takes no loopback URL", async () => {
    const off = (await cimdProject(false)).project;
    const d = doc("off");
    await d.serve({ body: d.good() });
    expect(await resolveClient(depsAt(Date.now()), off, d.url)).toBeNull();
    expect(await d.requests()).toBe(0);

    const { p, project } = await cimdProject();
    expect(await resolveClient(depsAt(Date.now()), project, d.url)).not.toBeNull();
    expect(await d.requests()).toBe(1);
    const res = await call("/internal/config/override/environment", {
      ...p.admin,
      method: "PATCH",
      body: { config_override_string: JSON.stringify({ "doorman.oauthProvider.clientIdMetadataDocuments": false }) },
    });
    expect(res.status, res.text).toBe(200);
    const turnedOff = (await loadProject(depsAt(Date.now()), p.projectId))!;
    expect(await storedRow(p.projectId, d.url)).not.toBeNull();
    expect(await resolveClient(depsAt(Date.now()), turnedOff, d.url)).toBeNull();
    // In production mode the URL is not a document's (http, loopback), and its cached row is not a client either.
    expect(await resolveClient(depsAt(Date.now()), { ...project, isProductionMode: true }, d.url)).toBeNull();
    expect(await d.requests()).toBe(1);
  });

  it("racing resolutions of one new URL all get the client (an upsert, never a 500), and one row is kept", async () => {
    const { p, project } = await cimdProject();
    const d = doc("race");
    await d.serve({ body: d.good() });
    const now = Date.now();
    const results = await Promise.all(Array.from({ length: 8 }, () => resolveClient(depsAt(now), project, d.url)));
    expect(results.every((r) => r?.clientId === d.url)).toBe(true);
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM oauth_clients WHERE project_id = ?")
      .bind(p.projectId)
      .first<{ n: number }>();
    expect(rows!.n).toBe(1);
  });
});

describe("CIMD: hostile and broken documents, refused in bounded time while /health answers", () => {
  type Case = [string, (d: ReturnType<typeof doc>) => Parameters<ReturnType<typeof doc>["serve"]>[0], RegExp];
  const cases: Case[] = [
    ["a hanging server", () => ({ mode: "hang" }), /did not complete within 5 s|No answer within/],
    ["a 10 MB body", () => ({ mode: "big" }), /larger than 64 KiB/],
    ["a redirect", () => ({ mode: "redirect" }), /Redirected \(HTTP 302\).*not followed/],
    ["a 404", () => ({ status: 404, body: { error: "gone" } }), /HTTP 404/],
    ["non-JSON", () => ({ body: "<html>hello</html>" }), /not JSON/],
    ["a JSON array", () => ({ body: [1, 2] }), /the document/],
    [
      "a client_id that is not the URL",
      (d) => ({ body: d.good({ client_id: "https://other.example/client.json" }) }),
      /is not the document's URL/,
    ],
    ["a client secret", (d) => ({ body: d.good({ client_secret: "s3cret" }) }), /must not contain a client secret/],
    ["a secret auth method", (d) => ({ body: d.good({ token_endpoint_auth_method: "client_secret_basic" }) }), /none or private_key_jwt/],
    ["no redirect_uris", (d) => ({ body: { ...d.good(), redirect_uris: undefined } }), /redirect_uris/],
    ["no client_name", (d) => ({ body: { ...d.good(), client_name: undefined } }), /client_name is required/],
    ["a wildcard redirect URI", (d) => ({ body: d.good({ redirect_uris: ["https://*.agent.example/cb"] }) }), /redirect_uris: .*wildcard/],
    ["the implicit grant", (d) => ({ body: d.good({ grant_types: ["implicit"] }) }), /grant_types/],
  ];

  it.each(cases)("refuses %s", async (_what, config, message) => {
    const { project } = await cimdProject();
    const d = doc("hostile");
    await d.serve(config(d));
    const started = Date.now();
    const { result, polls, failures } = await withHealthPolls(() =>
      resolveMetadataDocumentClient(depsAt(started), project, new URL(d.url)),
    );
    const took = Date.now() - started;
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
    expect(took).toBeLessThan(8_000);
    expect(polls).toBeGreaterThan(0);
    expect(failures).toBe(0);
    expect(await resolveClient(depsAt(started), project, d.url)).toBeNull();
    expect(await storedRow(project.id, d.url)).toBeNull();
  });

  it("a refusal is remembered for a minute only: a fixed document works after it, and nothing is asked meanwhile", async () => {
    const { project } = await cimdProject();
    const d = doc("flaky");
    await d.serve({ status: 503, body: "down" });
    const t0 = Date.now();
    expect(await resolveClient(depsAt(t0), project, d.url)).toBeNull();
    expect(await d.requests()).toBe(1);
    await d.serve({ body: d.good() });
    expect(await resolveClient(depsAt(t0 + 30_000), project, d.url)).toBeNull();
    expect(await d.requests()).toBe(1);
    expect((await resolveClient(depsAt(t0 + 61_000), project, d.url))?.name).toBe("Docs Agent");
    expect(await d.requests()).toBe(2);
  });
});

describe("CIMD: the cache stays under its cap", () => {
  it(`past ${METADATA_DOCUMENT_CAP} cached documents the expired ones go; with none expired, a document is used uncached`, async () => {
    const { p, project } = await cimdProject();
    const now = Date.now();
    const insert = env.DB.prepare(
      "INSERT INTO oauth_clients (project_id, client_id, source, name, client_type, token_endpoint_auth_method, redirect_uris, metadata_expires_at, created_at, updated_at) VALUES (?, ?, 'metadata_document', 'cached', 'public', 'none', '[\"https://a.example/cb\"]', ?, ?, ?)",
    );
    // All fresh but ten, which expired a minute ago.
    await env.DB.batch(
      Array.from({ length: METADATA_DOCUMENT_CAP }, (_, i) =>
        insert.bind(p.projectId, `https://filler.example/c/${i}`, i < 10 ? now - MINUTE : now + 3600_000, now, now),
      ),
    );
    const count = async () =>
      (await env.DB.prepare("SELECT count(*) AS n FROM oauth_clients WHERE project_id = ?").bind(p.projectId).first<{ n: number }>())!.n;

    const d = doc("capped");
    await d.serve({ body: d.good() });
    expect((await resolveClient(depsAt(now), project, d.url))?.clientId).toBe(d.url);
    expect(await storedRow(p.projectId, d.url)).not.toBeNull();
    expect(await count()).toBe(METADATA_DOCUMENT_CAP - 10 + 1);

    // Fill the room again with fresh rows: the next new document is used, not stored.
    await env.DB.batch(
      Array.from({ length: 9 }, (_, i) => insert.bind(p.projectId, `https://filler.example/more/${i}`, now + 3600_000, now, now)),
    );
    const e = doc("uncached");
    await e.serve({ body: e.good() });
    expect((await resolveClient(depsAt(now), project, e.url))?.name).toBe("Docs Agent");
    expect(await storedRow(p.projectId, e.url)).toBeNull();
    expect(await count()).toBe(METADATA_DOCUMENT_CAP);
  });
});
