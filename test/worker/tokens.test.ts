/** Access tokens: ES256 against the JWKS, exactly the 18 wire claims, and every rejection path. */

import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { type AccessTokenClaims, audienceFor, issuerFor, signAccessToken, verifyAccessToken } from "../../worker/crypto/access-tokens";
import { getSigningKey } from "../../worker/crypto/signing-keys";
import { call, createProjectWithKeys, internalClient, signUp } from "../helpers/api";
import { workerFetch } from "../helpers/worker-fetch";

const CLAIMS = [
  "iss",
  "aud",
  "iat",
  "exp",
  "sub",
  "project_id",
  "branch_id",
  "refresh_token_id",
  "role",
  "name",
  "email",
  "email_verified",
  "selected_team_id",
  "signed_up_at",
  "is_anonymous",
  "is_restricted",
  "restricted_reason",
  "requires_totp_mfa",
].sort();

async function jwks(projectId: string, query = "") {
  const res = await workerFetch(`http://localhost/api/v1/projects/${projectId}/.well-known/jwks.json${query}`);
  return { status: res.status, headers: res.headers, body: (await res.json().catch(() => null)) as any };
}

describe("access tokens", () => {
  it("verify against the project JWKS and carry exactly the 18 claims", async () => {
    const user = await signUp();
    const keys = await jwks("internal");
    expect(keys.status).toBe(200);
    expect(keys.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(keys.body.keys[0]).toMatchObject({ kty: "EC", alg: "ES256", crv: "P-256" });
    const { payload, protectedHeader } = await jwtVerify(user.accessToken, createLocalJWKSet(keys.body));
    expect(protectedHeader.alg).toBe("ES256");
    expect(protectedHeader.kid).toHaveLength(12);
    expect(Object.keys(payload).sort()).toEqual(CLAIMS);
    expect(payload).toMatchObject({
      iss: "http://localhost/api/v1/projects/internal",
      aud: "internal",
      sub: user.userId,
      project_id: "internal",
      branch_id: "main",
      role: "authenticated",
      email: user.email,
      email_verified: false,
      is_anonymous: false,
      is_restricted: false,
      restricted_reason: null,
      requires_totp_mfa: false,
    });
    expect(payload.exp! - payload.iat!).toBe(600);
    expect(typeof payload.selected_team_id).toBe("string"); // the internal project creates a personal team
  });

  it("anonymous users get the anonymous issuer, audience and keys", async () => {
    const res = await call("/auth/anonymous/sign-up", { ...internalClient, method: "POST" });
    expect(res.status).toBe(200);
    const payload = decodeJwt(res.body.access_token);
    expect(payload).toMatchObject({
      aud: "internal:anon",
      iss: "http://localhost/api/v1/projects-anonymous-users/internal",
      is_anonymous: true,
      is_restricted: true,
      restricted_reason: { type: "anonymous" },
    });
    const plain = await jwks("internal");
    await expect(jwtVerify(res.body.access_token, createLocalJWKSet(plain.body))).rejects.toThrow();
    const withAnon = await jwks("internal", "?include_anonymous=true");
    expect(withAnon.body.keys).toHaveLength(3);
    await jwtVerify(res.body.access_token, createLocalJWKSet(withAnon.body));
    const alias = await workerFetch("http://localhost/api/v1/projects-anonymous-users/internal/.well-known/jwks.json", {
      redirect: "manual",
    });
    expect(alias.status).toBe(307);
    expect(alias.headers.get("location")).toContain("/api/v1/projects/internal/.well-known/jwks.json?include_anonymous=true");
  });

  it("JWKS of an unknown project is a 404", async () => {
    expect((await jwks("6f1a4f0e-3b5d-4c1e-9a7b-000000000000")).status).toBe(404);
  });

  it("each project signs with its own keys", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const own = await jwks(p.projectId);
    await jwtVerify(user.accessToken, createLocalJWKSet(own.body));
    const internal = await jwks("internal");
    await expect(jwtVerify(user.accessToken, createLocalJWKSet(internal.body))).rejects.toThrow();
  });
});

describe("token rejection", () => {
  it("a tampered token is UNPARSABLE_ACCESS_TOKEN even on endpoints that need no user", async () => {
    const user = await signUp();
    const [h, p, s] = user.accessToken.split(".");
    const payload = JSON.parse(atob(p!.replace(/-/g, "+").replace(/_/g, "/")));
    payload.sub = "6f1a4f0e-3b5d-4c1e-9a7b-000000000000";
    const forged = `${h}.${btoa(JSON.stringify(payload)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_")}.${s}`;
    const res = await call("/projects/current", { ...internalClient, accessToken: forged });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("UNPARSABLE_ACCESS_TOKEN");
    expect((await call("/projects/current", { ...internalClient, accessToken: "garbage" })).body.code).toBe("UNPARSABLE_ACCESS_TOKEN");
  });

  it("a token signed by another key (or alg none) is rejected", async () => {
    const user = await signUp();
    const claims = decodeJwt(user.accessToken);
    const { privateKey } = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
    const other = await new SignJWT(claims)
      .setProtectedHeader({ alg: "ES256", kid: decodeProtectedHeader(user.accessToken).kid! })
      .sign(privateKey);
    expect((await call("/users/me", { ...internalClient, accessToken: other })).body.code).toBe("UNPARSABLE_ACCESS_TOKEN");
    const none = `${btoa(JSON.stringify({ alg: "none" })).replace(/=+$/, "")}.${user.accessToken.split(".")[1]}.`;
    expect((await call("/users/me", { ...internalClient, accessToken: none })).body.code).toBe("UNPARSABLE_ACCESS_TOKEN");
  });

  it("an expired token is ACCESS_TOKEN_EXPIRED with details", async () => {
    const user = await signUp();
    const res = await call("/users/me", { ...internalClient, accessToken: user.accessToken, nowMs: Date.now() + 11 * 60_000 });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("ACCESS_TOKEN_EXPIRED");
    expect(res.body.details).toMatchObject({ project_id: "internal", user_id: user.userId });
    expect(typeof res.body.details.expired_at_millis).toBe("number");
    expect(typeof res.body.details.refresh_token_id).toBe("string");
  });

  it("a token of another project is INVALID_PROJECT_FOR_ACCESS_TOKEN", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp();
    const res = await call("/users/me", { ...p.client, accessToken: user.accessToken });
    expect(res.body.code).toBe("INVALID_PROJECT_FOR_ACCESS_TOKEN");
    expect(res.body.details).toEqual({ expected_project_id: p.projectId, actual_project_id: "internal" });
  });

  it("a deleted user's token no longer authenticates: the request has no user, and the session cannot refresh", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    expect((await call(`/users/${user.userId}`, { ...p.server, method: "DELETE" })).status).toBe(200);
    const res = await call("/users/me", { ...p.client, accessToken: user.accessToken });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
    const refresh = await call("/auth/sessions/current/refresh", {
      ...p.client,
      method: "POST",
      accessToken: user.accessToken,
      refreshToken: user.refreshToken,
    });
    expect(refresh.status).toBe(401);
    expect(refresh.body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  });
});

describe("signing and verifying in the worker (crypto/access-tokens.ts)", () => {
  const keys = { secret: "a-secret-only-this-test-signs-with-0123456789" };
  const claims: AccessTokenClaims = {
    sub: "3f1d7c2e-0000-4000-8000-000000000001",
    project_id: "token-test-project",
    branch_id: "main",
    refresh_token_id: "3f1d7c2e-0000-4000-8000-000000000002",
    role: "authenticated",
    name: "Zoë 名前",
    email: "zoe@example.com",
    email_verified: false,
    selected_team_id: null,
    signed_up_at: 1_767_225_600_000,
    is_anonymous: false,
    is_restricted: true,
    restricted_reason: { type: "email_not_verified" },
    requires_totp_mfa: false,
  };
  const now = Date.UTC(2026, 0, 1, 12);

  it("signs the same header and claims as jose's SignJWT, and jose verifies the signature", async () => {
    const token = await signAccessToken(keys, "http://localhost", claims, now, 600);
    const aud = audienceFor(claims.project_id, claims);
    const key = await getSigningKey(keys.secret, aud);
    const iat = Math.floor(now / 1000);
    const { sub, ...rest } = claims;
    const reference = await new SignJWT({ ...rest })
      .setProtectedHeader({ alg: "ES256", kid: key.kid })
      .setSubject(sub)
      .setIssuer(issuerFor("http://localhost", claims.project_id, aud))
      .setAudience(aud)
      .setIssuedAt(iat)
      .setExpirationTime(iat + 600)
      .sign(key.privateKey);
    expect(token.split(".").slice(0, 2)).toEqual(reference.split(".").slice(0, 2));
    const { payload, protectedHeader } = await jwtVerify(token, key.publicKey, { algorithms: ["ES256"], currentDate: new Date(now) });
    expect(protectedHeader).toEqual({ alg: "ES256", kid: key.kid });
    expect(payload).toMatchObject({ ...rest, sub, aud, iat, exp: iat + 600 });
  });

  it("a token verified before is still checked for expiry at each use, and only under the secret that verified it", async () => {
    const token = await signAccessToken(keys, "http://localhost", claims, now, 600);
    const first = await verifyAccessToken(keys, token, now);
    expect(first.ok).toBe(true);
    // The same token again (from the isolate's cache of verified tokens): same claims while valid, expired after exp.
    expect(await verifyAccessToken(keys, token, now + 1000)).toEqual(first);
    expect(await verifyAccessToken(keys, token, now + 600_000)).toMatchObject({ ok: false, reason: "expired" });
    // Another secret (the old one no longer listed): the cached check does not count.
    expect(await verifyAccessToken({ secret: "another-secret-entirely-0123456789" }, token, now)).toEqual({
      ok: false,
      reason: "unparsable",
    });
    // Kept as the previous secret: still valid.
    expect((await verifyAccessToken({ secret: "another-secret-entirely-0123456789", previousSecret: keys.secret }, token, now)).ok).toBe(
      true,
    );
    // A tampered signature is never taken from the cache.
    const tampered = `${token.slice(0, -4)}${token.endsWith("AAAA") ? "BBBB" : "AAAA"}`;
    expect(await verifyAccessToken(keys, tampered, now)).toEqual({ ok: false, reason: "unparsable" });
  });
});
