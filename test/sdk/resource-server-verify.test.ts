/**
 * verifyAccessToken for resource servers (issue 30): Doorman-issued OAuth access tokens (RFC 9068)
 * verified locally against a cached JWKS; a token for another resource, a session token, an ID
 * token, an expired or forged one refused as invalid_token; missing scopes as insufficient_scope.
 * Also against the real worker: a token signed with the project's own key (as the token endpoint
 * signs them) verifies with the project's JWKS, and Doorman's API does not take it as a session.
 */
import { env } from "cloudflare:test";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { createResourceServerVerifier, verifyAccessToken } from "../../sdk/src";
import { JwksUnavailableError } from "../../sdk/src/resource-server";
import { getSigningKey } from "../../worker/crypto/signing-keys";
import { serverSecret } from "../../worker/services/deps";
import { call, createProjectWithKeys, signUp } from "../helpers/api";
import { localIssuer, RESOURCE_A, RESOURCE_B } from "../helpers/resource-server";
import { workerFetch } from "../helpers/worker-fetch";

describe("verifyAccessToken", () => {
  it("verifies many tokens with one JWKS fetch and returns who, which app, which scopes", async () => {
    const as = await localIssuer();
    const verify = createResourceServerVerifier({ issuer: as.issuer, audience: RESOURCE_A, fetch: as.fetch });
    for (let i = 0; i < 10; i++) {
      const result = await verify(await as.mint({ sub: `user_${i}` }));
      expect(result.status === "ok" && result.data.userId).toBe(`user_${i}`);
    }
    expect(as.fetched).toEqual([as.jwksUrl]);
    const token = await as.mint({ team_id: "team_9" });
    const result = await verify(token);
    expect(result.status).toBe("ok");
    if (result.status !== "ok") return;
    expect(result.data).toMatchObject({
      userId: "user_1",
      clientId: "dmc_abcdefghijklmnopqrstuvwx",
      scopes: ["openid", "profile", "mcp:tools"],
      teamId: "team_9",
      grantId: "grant_1",
      audience: RESOURCE_A,
      issuer: as.issuer,
    });
    expect(result.data.expiresAtMillis).toBe((result.data.claims.exp as number) * 1000);
    expect(result.data.claims.auth_time).toBeTypeOf("number");
    // Without team binding: null.
    const plain = await verify(await as.mint());
    expect(plain.status === "ok" && plain.data.teamId).toBeNull();
  });

  it("refuses a token for another resource (RFC 8707 audience binding), and takes one naming several audiences", async () => {
    const as = await localIssuer();
    const atA = createResourceServerVerifier({ issuer: as.issuer, audience: RESOURCE_A, fetch: as.fetch });
    const atB = createResourceServerVerifier({ issuer: as.issuer, audience: RESOURCE_B, fetch: as.fetch });
    const forA = await as.mint({ aud: RESOURCE_A });
    expect((await atA(forA)).status).toBe("ok");
    expect(await atB(forA)).toEqual({
      status: "error",
      error: { code: "invalid_token", description: "The access token is not for this resource." },
    });
    // A token whose aud is the issuer (no resource asked for) is for the issuer's userinfo only.
    expect((await atA(await as.mint({ aud: as.issuer }))).status).toBe("error");
    const both = await as.mint({ aud: [RESOURCE_B, RESOURCE_A] });
    const atBoth = await atA(both);
    expect(atBoth.status === "ok" && atBoth.data.audience).toBe(RESOURCE_A);
    // A server reachable under two identifiers accepts either.
    const twoNames = createResourceServerVerifier({ issuer: as.issuer, audience: [RESOURCE_B, RESOURCE_A], fetch: as.fetch });
    expect((await twoNames(forA)).status).toBe("ok");
  });

  it("refuses session-shaped and ID-token-shaped JWTs signed by the same key (typ is not at+jwt)", async () => {
    const as = await localIssuer();
    const verify = createResourceServerVerifier({ issuer: as.issuer, audience: RESOURCE_A, fetch: as.fetch });
    const notAccess = { code: "invalid_token", description: "Not an OAuth access token (its type is not at+jwt)." };
    // Doorman's session access token: typ JWT, aud = the project id, no client_id.
    const session = await as.mint({ aud: "proj_rs", client_id: undefined, project_id: "proj_rs", refresh_token_id: "s1" }, { typ: "JWT" });
    expect(await verify(session)).toEqual({ status: "error", error: notAccess });
    // Even with this API's audience, a JWT that is not typed at+jwt is refused (an ID token, or no typ at all).
    expect(await verify(await as.mint({ aud: RESOURCE_A }, { typ: "JWT" }))).toEqual({ status: "error", error: notAccess });
    expect(await verify(await as.mint({}, { typ: undefined }))).toEqual({ status: "error", error: notAccess });
    // RFC 9068 §2.1: "application/at+jwt" is the same type.
    expect((await verify(await as.mint({}, { typ: "application/at+jwt" }))).status).toBe("ok");
  });

  it("refuses expired tokens, allows the configured clock tolerance, and refuses another issuer, a forgery and other algorithms", async () => {
    const as = await localIssuer();
    let now = Date.now();
    const verify = createResourceServerVerifier({ issuer: as.issuer, audience: RESOURCE_A, fetch: as.fetch, now: () => now });
    const exp = Math.floor(now / 1000) + 60;
    const token = await as.mint({ exp });
    expect((await verify(token)).status).toBe("ok");
    now = (exp + 5) * 1000;
    expect(await verify(token)).toEqual({ status: "error", error: { code: "invalid_token", description: "The access token expired." } });
    const lenient = createResourceServerVerifier({
      issuer: as.issuer,
      audience: RESOURCE_A,
      fetch: as.fetch,
      now: () => now,
      clockToleranceSeconds: 30,
    });
    expect((await lenient(token)).status).toBe("ok");
    now = Date.now();

    const other = await localIssuer("https://auth.example.test/api/v1/projects/other");
    const fromOther = await other.mint({ iss: other.issuer });
    expect((await verify(fromOther)).status).toBe("error");
    const wrongIss = await as.mint({ iss: "https://auth.example.test/api/v1/projects/other" });
    expect(await verify(wrongIss)).toMatchObject({ error: { description: "The access token is from another issuer." } });
    const forged = await as.mintForged();
    expect(await verify(forged)).toMatchObject({ error: { code: "invalid_token", description: expect.stringContaining("signature") } });
    const hs = await new SignJWT({ iss: as.issuer, aud: RESOURCE_A, sub: "u", client_id: "c", jti: "j" })
      .setProtectedHeader({ alg: "HS256", typ: "at+jwt", kid: "kid-rs-1" })
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("a shared secret that is long enough"));
    expect(await verify(hs)).toMatchObject({ error: { code: "invalid_token" } });
    const [, payload] = token.split(".");
    const unsigned = `${btoa(JSON.stringify({ alg: "none", typ: "at+jwt" })).replace(/=+$/, "")}.${payload}.`;
    expect(await verify(unsigned)).toMatchObject({ error: { code: "invalid_token" } });
    expect(await verify("not-a-jwt")).toMatchObject({ error: { code: "invalid_token" } });
    // RFC 9068 §2.2: client_id and jti are required.
    expect(await verify(await as.mint({ client_id: undefined }))).toMatchObject({ error: { code: "invalid_token" } });
    expect(await verify(await as.mint({ jti: undefined }))).toMatchObject({ error: { code: "invalid_token" } });
    expect(await verify(await as.mint({ scope: ["not", "a", "string"] }))).toMatchObject({
      error: { description: "The access token's claims are malformed." },
    });
  });

  it("answers insufficient_scope with the scopes a request needs", async () => {
    const as = await localIssuer();
    const verify = createResourceServerVerifier({
      issuer: as.issuer,
      audience: RESOURCE_A,
      fetch: as.fetch,
      requiredScopes: ["mcp:tools"],
    });
    expect((await verify(await as.mint({ scope: "openid mcp:tools" }))).status).toBe("ok");
    expect(await verify(await as.mint({ scope: "openid" }))).toEqual({
      status: "error",
      error: {
        code: "insufficient_scope",
        description: "The access token lacks a scope this request needs.",
        requiredScopes: ["mcp:tools"],
      },
    });
    // A request may need more than every request does.
    const token = await as.mint({ scope: "mcp:tools" });
    expect(await verify(token, { requiredScopes: ["notes:write"] })).toMatchObject({
      error: { code: "insufficient_scope", requiredScopes: ["mcp:tools", "notes:write"] },
    });
    expect((await verify(await as.mint({ scope: "mcp:tools notes:write" }), { requiredScopes: ["notes:write"] })).status).toBe("ok");
    expect(await verify(await as.mint({ scope: undefined }))).toMatchObject({ error: { code: "insufficient_scope" } });
  });

  it("the one-shot verifyAccessToken shares the JWKS between calls; an unreachable JWKS throws, never a 401 reason", async () => {
    const as = await localIssuer();
    for (let i = 0; i < 5; i++) {
      const result = await verifyAccessToken(await as.mint(), { issuer: as.issuer, audience: RESOURCE_A, fetch: as.fetch });
      expect(result.status).toBe("ok");
    }
    expect(as.fetched).toEqual([as.jwksUrl]);
    const down = () => Promise.reject(new TypeError("connection refused"));
    await expect(verifyAccessToken(await as.mint(), { issuer: as.issuer, audience: RESOURCE_A, fetch: down })).rejects.toBeInstanceOf(
      JwksUnavailableError,
    );
    const broken = async () => new Response("oops", { status: 500 });
    await expect(verifyAccessToken(await as.mint(), { issuer: as.issuer, audience: RESOURCE_A, fetch: broken })).rejects.toBeInstanceOf(
      JwksUnavailableError,
    );
    expect(() => createResourceServerVerifier({ issuer: as.issuer, audience: [] })).toThrow(TypeError);
  });

  it("against the worker: a token signed with the project's key verifies with its JWKS; a session token of the project does not", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const key = await getSigningKey(serverSecret(env as never), p.projectId);
    const issuer = `http://localhost/api/v1/projects/${p.projectId}`;
    const now = Math.floor(Date.now() / 1000);
    // The access token as oauth-design.md describes what the token endpoint signs.
    const accessToken = await new SignJWT({
      iss: issuer,
      sub: user.userId,
      aud: RESOURCE_A,
      client_id: "dmc_abcdefghijklmnopqrstuvwx",
      scope: "openid email",
      iat: now,
      exp: now + 3600,
      jti: crypto.randomUUID(),
      auth_time: now,
      grant_id: "grant_x",
    })
      .setProtectedHeader({ alg: "ES256", kid: key.kid, typ: "at+jwt" })
      .sign(key.privateKey);
    const fetched: string[] = [];
    const counted = (input: string, init: RequestInit) => {
      fetched.push(input);
      return workerFetch(input, init);
    };
    const verify = createResourceServerVerifier({
      projectId: p.projectId,
      baseUrl: "http://localhost",
      audience: RESOURCE_A,
      fetch: counted,
    });
    const ok = await verify(accessToken);
    expect(ok.status === "ok" && ok.data).toMatchObject({ userId: user.userId, scopes: ["openid", "email"], issuer });
    expect(fetched).toEqual([`${issuer}/.well-known/jwks.json`]);
    // Doorman's own session token, same key and issuer: refused, whatever audience the API names.
    expect(await verify(user.accessToken)).toMatchObject({ error: { code: "invalid_token" } });
    const asProject = createResourceServerVerifier({
      projectId: p.projectId,
      baseUrl: "http://localhost",
      audience: p.projectId,
      fetch: workerFetch,
    });
    expect(await asProject(user.accessToken)).toMatchObject({
      error: { description: "Not an OAuth access token (its type is not at+jwt)." },
    });
    // And the other way round: Doorman's API does not take the OAuth access token as a session (its aud is not the project id).
    const me = await call("/users/me", { ...p.client, accessToken });
    expect(me.status).toBe(401);
    expect((await call("/users/me", { ...p.client, accessToken: user.accessToken })).status).toBe(200);
  });
});
