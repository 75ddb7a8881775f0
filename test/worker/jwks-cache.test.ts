/** The JWKS is cached per isolate and served with Cache-Control and an ETag (issue 16). */

import { env } from "cloudflare:test";
import { createLocalJWKSet, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { getSigningKey } from "../../worker/crypto/signing-keys";
import { serverSecret } from "../../worker/services/deps";
import { JWKS_RECHECK_MS } from "../../worker/services/jwks";
import { call, createProjectWithKeys, signUp } from "../helpers/api";
import { workerFetch } from "../helpers/worker-fetch";

const CACHE_CONTROL = "public, max-age=3600";

function jwksUrl(projectId: string, query = "") {
  return `http://localhost/api/v1/projects/${projectId}/.well-known/jwks.json${query}`;
}

async function get(projectId: string, init: { query?: string; headers?: Record<string, string>; nowMs?: number } = {}) {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  if (init.nowMs !== undefined) headers["x-doorman-test-now"] = String(init.nowMs);
  const res = await workerFetch(jwksUrl(projectId, init.query), { headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe("JWKS caching", () => {
  it("answers with Cache-Control, a strong ETag and the same bytes every time", async () => {
    const p = await createProjectWithKeys();
    const first = await get(p.projectId);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe(CACHE_CONTROL);
    expect(first.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);

    const second = await get(p.projectId);
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(second.headers.get("etag")).toBe(etag);

    // The cached body is exactly the derived public key, and verifies the project's tokens.
    const key = await getSigningKey(serverSecret(env as never), p.projectId);
    expect(JSON.parse(second.text)).toEqual({ keys: [{ ...key.publicJwk, alg: "ES256", kid: key.kid, use: "sig" }] });
    const user = await signUp(p.client);
    await jwtVerify(user.accessToken, createLocalJWKSet(JSON.parse(second.text)));
  });

  it("answers 304 with no body when If-None-Match names the ETag", async () => {
    const first = await get("internal");
    const etag = first.headers.get("etag")!;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const res = await get("internal", { headers: { "if-none-match": ifNoneMatch } });
      expect(res.status, ifNoneMatch).toBe(304);
      expect(res.text).toBe("");
      expect(res.headers.get("etag")).toBe(etag);
      expect(res.headers.get("cache-control")).toBe(CACHE_CONTROL);
    }
    const stale = await get("internal", { headers: { "if-none-match": '"0123456789abcdef0123456789abcdef"' } });
    expect(stale.status).toBe(200);
    expect(stale.text).toBe(first.text);
  });

  it("keeps one entry per key selection, each with its own ETag", async () => {
    const plain = await get("internal");
    const restricted = await get("internal", { query: "?include_restricted=true" });
    const anonymous = await get("internal", { query: "?include_anonymous=true" });
    expect(JSON.parse(plain.text).keys).toHaveLength(1);
    expect(JSON.parse(restricted.text).keys).toHaveLength(2);
    expect(JSON.parse(anonymous.text).keys).toHaveLength(3);
    const etags = new Set([plain, restricted, anonymous].map((r) => r.headers.get("etag")));
    expect(etags.size).toBe(3);
    const again = await get("internal", { query: "?include_anonymous=true", headers: { "if-none-match": anonymous.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });

  it("re-checks that the project exists once the entry is older than the re-check window", async () => {
    const p = await createProjectWithKeys();
    const t0 = Date.now();
    expect((await get(p.projectId, { nowMs: t0 })).status).toBe(200);
    const deleted = await call("/internal/projects/current", { ...p.adminKey, method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect((await get(p.projectId, { nowMs: t0 + JWKS_RECHECK_MS + 1 })).status).toBe(404);
    // A 404 is not cached: it stays a 404 (and an ETag never outlives its project).
    const gone = await get(p.projectId, { nowMs: t0 + JWKS_RECHECK_MS + 2, headers: { "if-none-match": "*" } });
    expect(gone.status).toBe(404);
  });

  it("an unknown project is a 404 without caching headers of the JWKS", async () => {
    const res = await get("6f1a4f0e-3b5d-4c1e-9a7b-00000000abcd");
    expect(res.status).toBe(404);
    expect(res.headers.get("etag")).toBeNull();
  });
});
