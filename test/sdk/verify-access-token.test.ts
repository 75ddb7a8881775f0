/** The SDK verifies access tokens locally against a cached JWKS: one fetch, then no requests (issue 16). */

import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { createAccessTokenVerifier } from "../../sdk/src";
import { call, createProjectWithKeys, internalClient, signUp } from "../helpers/api";
import { workerFetch } from "../helpers/worker-fetch";

function countingFetch() {
  const urls: string[] = [];
  const fetch = (input: string, init: RequestInit) => {
    urls.push(input);
    return workerFetch(input, init);
  };
  return { urls, fetch };
}

describe("createAccessTokenVerifier", () => {
  it("verifies many tokens with one JWKS fetch and returns the identity", async () => {
    const a = await signUp();
    const b = await signUp();
    const counted = countingFetch();
    const verify = createAccessTokenVerifier({ projectId: "internal", baseUrl: "http://localhost", fetch: counted.fetch });
    for (let i = 0; i < 20; i++) {
      const who = await verify(i % 2 ? a.accessToken : b.accessToken);
      expect(who?.userId).toBe(i % 2 ? a.userId : b.userId);
    }
    expect(counted.urls).toEqual(["http://localhost/api/v1/projects/internal/.well-known/jwks.json"]);
    const who = await verify(a.accessToken);
    expect(who).toMatchObject({ projectId: "internal", isAnonymous: false, isRestricted: false });
    expect(who?.claims.email).toBe(a.email);
    expect(typeof who?.sessionId).toBe("string");
  });

  it("rejects tampered tokens, other projects' tokens, expired tokens and foreign keys", async () => {
    const user = await signUp();
    const p = await createProjectWithKeys();
    const other = await signUp(p.client);
    let now = Date.now();
    const verify = createAccessTokenVerifier({ projectId: "internal", baseUrl: "http://localhost", fetch: workerFetch, now: () => now });
    expect(await verify(user.accessToken)).not.toBeNull();
    const [h, , s] = user.accessToken.split(".");
    const forged = `${h}.${btoa(JSON.stringify({ sub: "x", aud: "internal" })).replace(/=+$/, "")}.${s}`;
    expect(await verify(forged)).toBeNull();
    expect(await verify(other.accessToken)).toBeNull();
    expect(await verify("garbage")).toBeNull();
    const { privateKey } = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
    const foreign = await new SignJWT({ project_id: "internal" }).setProtectedHeader({ alg: "ES256", kid: "unknown-kid" }).sign(privateKey);
    expect(await verify(foreign)).toBeNull();
    now += 11 * 60_000; // past the 10-minute lifetime
    expect(await verify(user.accessToken)).toBeNull();
  });

  it("accepts anonymous users' tokens only when asked to", async () => {
    const anon = await call("/auth/anonymous/sign-up", { ...internalClient, body: {} });
    expect(anon.status).toBe(200);
    const strict = createAccessTokenVerifier({ projectId: "internal", baseUrl: "http://localhost", fetch: workerFetch });
    expect(await strict(anon.body.access_token)).toBeNull();
    const counted = countingFetch();
    const lenient = createAccessTokenVerifier({
      projectId: "internal",
      baseUrl: "http://localhost",
      fetch: counted.fetch,
      includeAnonymous: true,
    });
    expect(await lenient(anon.body.access_token)).toMatchObject({ isAnonymous: true, isRestricted: true });
    expect(counted.urls).toEqual(["http://localhost/api/v1/projects/internal/.well-known/jwks.json?include_anonymous=true"]);
  });

  it("verifies with a JWKS given up front, with no fetch at all", async () => {
    const user = await signUp();
    const jwks = await (await workerFetch("http://localhost/api/v1/projects/internal/.well-known/jwks.json")).json();
    const verify = createAccessTokenVerifier({
      projectId: "internal",
      baseUrl: "http://localhost",
      jwks: jwks as never,
      fetch: () => Promise.reject(new Error("no network expected")),
    });
    expect((await verify(user.accessToken))?.userId).toBe(user.userId);
  });
});
