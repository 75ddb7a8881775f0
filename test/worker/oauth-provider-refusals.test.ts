/**
 * The OpenID provider's refusals (issue 30; RFC 9700, the OAuth 2.0 Security BCP, and RFC 6749's error
 * rules): each one a test. Before the client and redirect URI are known good nothing redirects; after,
 * the error goes back to the app with state and iss. At the token endpoint: PKCE, the redirect URI,
 * replayed and foreign codes, client authentication and the error wire.
 */
import { env } from "cloudflare:test";
import { decodeJwt } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { call, type SignedUp, signUp } from "../helpers/api";
import {
  APP_REDIRECT,
  approveForTest,
  authorize,
  codeFlow,
  codeRequest,
  insertClient,
  issuerOf,
  type ProviderProject,
  pkce,
  postForm,
  providerProject,
  requestIdOf,
  type TestClient,
} from "../helpers/oauth-provider";
import { workerFetch } from "../helpers/worker-fetch";

let p: ProviderProject;
let client: TestClient;
let publicClient: TestClient;
let user: SignedUp;

beforeAll(async () => {
  p = await providerProject({ scopes: { "notes:read": { description: "Read notes" } } });
  client = await insertClient(p.projectId);
  publicClient = await insertClient(p.projectId, {
    type: "public",
    redirectUris: [APP_REDIRECT, "http://127.0.0.1/cb", "http://localhost/cb"],
  });
  user = await signUp(p.client);
});

/** The error parameters of an error redirect to the app. */
function redirectError(res: Response): Record<string, string> {
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get("location") as string);
  expect(`${location.origin}${location.pathname}`).toBe(APP_REDIRECT);
  return Object.fromEntries(location.searchParams);
}

async function expectNoRedirect(res: Response, pattern: RegExp) {
  expect(res.status).toBe(400);
  expect(res.headers.get("location")).toBeNull();
  expect(res.headers.get("content-type")).toContain("text/plain");
  expect(await res.text()).toMatch(pattern);
}

async function approvedCode(c: TestClient, extra: Record<string, string> = {}) {
  const { verifier, challenge } = await pkce();
  const requestId = requestIdOf(await authorize(p.projectId, codeRequest(c.clientId, challenge, extra)));
  const code = (await approveForTest(requestId, { userId: user.userId })) as string;
  return { code, verifier, requestId };
}

const redeem = (c: TestClient, form: Record<string, string>) =>
  postForm(p.projectId, "token", { grant_type: "authorization_code", redirect_uri: APP_REDIRECT, ...form }, c.secret ? { basic: c } : {});

describe("authorization endpoint refusals", () => {
  it("a good request is stored pending for 10 minutes and goes to the project's hosted consent page (302, 303 after POST)", async () => {
    const { challenge } = await pkce();
    const before = Date.now();
    const res = await authorize(p.projectId, codeRequest(client.clientId, challenge, { resource: "https://api.example.com/" }));
    expect(res.status).toBe(302);
    const location = res.headers.get("location") as string;
    expect(location).toMatch(new RegExp(`^http://localhost/p/${p.projectId}/handler/oauth-consent\\?request_id=`));
    const row = await env.DB.prepare("SELECT * FROM oauth_authorization_requests WHERE id = ?")
      .bind(requestIdOf(res))
      .first<Record<string, unknown>>();
    expect(row).toMatchObject({
      status: "pending",
      client_id: client.clientId,
      redirect_uri: APP_REDIRECT,
      scope: "openid profile email offline_access",
      state: "st-123",
      nonce: "n-456",
      code_challenge: challenge,
      resource: "https://api.example.com/",
      team_requested: 0,
    });
    expect(Number(row?.expires_at) - Number(row?.created_at)).toBe(600_000);
    expect(Number(row?.created_at)).toBeGreaterThanOrEqual(before);
    const posted = await authorize(p.projectId, codeRequest(client.clientId, challenge), "POST");
    expect(posted.status).toBe(303);
    expect(requestIdOf(posted)).toBeTruthy();
  });

  it("sends the consent page to the project's custom domain when it maps one", async () => {
    const q = await providerProject();
    const c = await insertClient(q.projectId);
    const host = `auth-${crypto.randomUUID().slice(0, 8)}.example.com`;
    expect((await call("/internal/hosted-pages/custom-domain", { ...q.admin, method: "PUT", body: { hostname: host } })).status).toBe(200);
    const { challenge } = await pkce();
    const res = await authorize(q.projectId, codeRequest(c.clientId, challenge));
    expect(res.headers.get("location")).toMatch(new RegExp(`^https://${host}/handler/oauth-consent\\?request_id=`));
  });

  it("a wrong redirect URI, an unknown client or a repeated client_id: a plain 400, never a redirect", async () => {
    const { challenge } = await pkce();
    await expectNoRedirect(
      await authorize(p.projectId, codeRequest(client.clientId, challenge, { redirect_uri: "https://evil.example/cb" })),
      /redirect_uri/,
    );
    await expectNoRedirect(
      await authorize(p.projectId, codeRequest(client.clientId, challenge, { redirect_uri: `${APP_REDIRECT}/more` })),
      /redirect_uri/,
    );
    await expectNoRedirect(
      await authorize(p.projectId, codeRequest(client.clientId, challenge, { redirect_uri: `${APP_REDIRECT}#frag` })),
      /redirect_uri/,
    );
    await expectNoRedirect(await authorize(p.projectId, codeRequest("dmc_nobody", challenge)), /unknown client_id/);
    await expectNoRedirect(
      await authorize(p.projectId, codeRequest(client.clientId, challenge, { client_id: [client.clientId, client.clientId] })),
      /repeated/,
    );
    const { redirect_uri: _omit, ...withoutRedirect } = codeRequest(client.clientId, challenge);
    await expectNoRedirect(await authorize(p.projectId, withoutRedirect), /no redirect_uri/);
    // Another project's client is no client of this one.
    const other = await providerProject();
    await expectNoRedirect(await authorize(other.projectId, codeRequest(client.clientId, challenge)), /unknown client_id/);
    expect((await authorize(crypto.randomUUID(), codeRequest(client.clientId, challenge))).status).toBe(404);
  });

  it("loopback IP redirect URIs match on any port (RFC 8252 §7.3); localhost names do not", async () => {
    const { challenge } = await pkce();
    const ok = await authorize(p.projectId, codeRequest(publicClient.clientId, challenge, { redirect_uri: "http://127.0.0.1:53127/cb" }));
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toContain("/oauth-consent?request_id=");
    await expectNoRedirect(
      await authorize(p.projectId, codeRequest(publicClient.clientId, challenge, { redirect_uri: "http://127.0.0.1:53127/other" })),
      /redirect_uri/,
    );
    await expectNoRedirect(
      await authorize(p.projectId, codeRequest(publicClient.clientId, challenge, { redirect_uri: "http://localhost:53127/cb" })),
      /redirect_uri/,
    );
  });

  it("missing PKCE: invalid_request back to the app, with state and iss (RFC 9207)", async () => {
    const { code_challenge: _c, code_challenge_method: _m, ...noPkce } = codeRequest(client.clientId, "x");
    const err = redirectError(await authorize(p.projectId, noPkce));
    expect(err).toMatchObject({ error: "invalid_request", state: "st-123", iss: issuerOf(p.projectId) });
    expect(err.error_description).toMatch(/code_challenge/);
  });

  it("a public client without PKCE is refused the same way", async () => {
    const { code_challenge: _c, code_challenge_method: _m, ...noPkce } = codeRequest(publicClient.clientId, "x");
    expect(redirectError(await authorize(p.projectId, noPkce))).toMatchObject({ error: "invalid_request" });
  });

  it("the plain PKCE method is refused, and so is a challenge without a method", async () => {
    const verifier = "v".repeat(43);
    expect(
      redirectError(await authorize(p.projectId, codeRequest(client.clientId, verifier, { code_challenge_method: "plain" }))),
    ).toMatchObject({ error: "invalid_request", error_description: "code_challenge_method must be S256." });
    const { code_challenge_method: _m, ...noMethod } = codeRequest(client.clientId, verifier);
    expect(redirectError(await authorize(p.projectId, noMethod))).toMatchObject({ error: "invalid_request" });
  });

  it("implicit and hybrid response types are refused (unsupported_response_type)", async () => {
    const { challenge } = await pkce();
    for (const type of ["token", "id_token", "code id_token", "code token"]) {
      expect(
        redirectError(await authorize(p.projectId, codeRequest(client.clientId, challenge, { response_type: type }))),
        type,
      ).toMatchObject({
        error: "unsupported_response_type",
      });
    }
    expect(
      redirectError(await authorize(p.projectId, codeRequest(client.clientId, challenge, { response_mode: "fragment" }))),
    ).toMatchObject({
      error: "invalid_request",
    });
  });

  it("scopes beyond the project's or the client's are invalid_scope", async () => {
    const { challenge } = await pkce();
    expect(redirectError(await authorize(p.projectId, codeRequest(client.clientId, challenge, { scope: "openid admin" })))).toMatchObject({
      error: "invalid_scope",
    });
    const narrow = await insertClient(p.projectId, { allowedScopes: ["openid", "email"] });
    expect(
      redirectError(await authorize(p.projectId, codeRequest(narrow.clientId, challenge, { scope: "openid notes:read" }))),
    ).toMatchObject({
      error: "invalid_scope",
    });
    expect(
      (await authorize(p.projectId, codeRequest(client.clientId, challenge, { scope: "openid notes:read" }))).headers.get("location"),
    ).toContain("oauth-consent");
  });

  it("resource indicators: absolute, no fragment, one, and in the owner's list when there is one (invalid_target)", async () => {
    const { challenge } = await pkce();
    for (const resource of [
      "not a uri",
      "https://api.example.com/#x",
      "http://api.example.com/",
      ["https://a.example/", "https://b.example/"],
    ]) {
      expect(
        redirectError(await authorize(p.projectId, codeRequest(client.clientId, challenge, { resource }))),
        String(resource),
      ).toMatchObject({
        error: "invalid_target",
      });
    }
    expect((await authorize(p.projectId, codeRequest(client.clientId, challenge, { resource: "http://localhost:3001/mcp" }))).status).toBe(
      302,
    );
    const listed = await providerProject({ resources: ["https://listed.example.com/mcp"] });
    const c = await insertClient(listed.projectId);
    expect(
      redirectError(await authorize(listed.projectId, codeRequest(c.clientId, challenge, { resource: "https://other.example.com/mcp" }))),
    ).toMatchObject({
      error: "invalid_target",
    });
    expect(
      (await authorize(listed.projectId, codeRequest(c.clientId, challenge, { resource: "https://listed.example.com/mcp" }))).status,
    ).toBe(302);
  });

  it("prompt, max_age, request objects and repeated parameters", async () => {
    const { challenge } = await pkce();
    const refused = async (extra: Record<string, string | string[]>) =>
      redirectError(await authorize(p.projectId, codeRequest(client.clientId, challenge, extra))).error;
    expect(await refused({ prompt: "none login" })).toBe("invalid_request");
    expect(await refused({ prompt: "sometimes" })).toBe("invalid_request");
    expect(await refused({ max_age: "-1" })).toBe("invalid_request");
    expect(await refused({ request: "eyJ..." })).toBe("request_not_supported");
    expect(await refused({ request_uri: "https://x.example/r" })).toBe("request_uri_not_supported");
    expect(await refused({ scope: ["openid", "email"] })).toBe("invalid_request");
    // The row is written before anyone signed in: what it stores is bounded.
    expect(await refused({ state: "s".repeat(2049) })).toBe("invalid_request");
    expect(await refused({ nonce: "n".repeat(513) })).toBe("invalid_request");
    const ok = await authorize(
      p.projectId,
      codeRequest(client.clientId, challenge, { prompt: "login consent", max_age: "300", ui_locales: "fr" }),
    );
    const row = await env.DB.prepare("SELECT prompt, max_age FROM oauth_authorization_requests WHERE id = ?").bind(requestIdOf(ok)).first();
    expect(row).toEqual({ prompt: "login consent", max_age: 300 });
  });

  it("a provider the owner turned off refuses every client (unauthorized_client)", async () => {
    const off = await providerProject({ enabled: false });
    const c = await insertClient(off.projectId);
    const { challenge } = await pkce();
    expect(redirectError(await authorize(off.projectId, codeRequest(c.clientId, challenge)))).toMatchObject({
      error: "unauthorized_client",
    });
    const token = await postForm(off.projectId, "token", { grant_type: "refresh_token", refresh_token: "dmrt_x" }, { basic: c });
    expect(token.body).toMatchObject({ error: "unauthorized_client" });
    // Discovery still answers.
    expect((await workerFetch(`${issuerOf(off.projectId)}/.well-known/openid-configuration`)).status).toBe(200);
  });
});

describe("token endpoint refusals", () => {
  it("a wrong PKCE verifier is invalid_grant, and does not spend the code", async () => {
    const { code, verifier } = await approvedCode(client);
    const wrong = await redeem(client, { code, code_verifier: "w".repeat(43) });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: "invalid_grant" });
    expect(wrong.headers.get("cache-control")).toBe("no-store");
    expect((await redeem(client, { code, code_verifier: verifier })).status).toBe(200);
  });

  it("a missing or malformed verifier is invalid_grant", async () => {
    const { code } = await approvedCode(client);
    expect((await redeem(client, { code })).body).toMatchObject({ error: "invalid_grant" });
    expect((await redeem(client, { code, code_verifier: "short" })).body).toMatchObject({ error: "invalid_grant" });
  });

  it("the redirect URI must be the authorization request's, exactly", async () => {
    const { code, verifier } = await approvedCode(client);
    const res = await redeem(client, { code, code_verifier: verifier, redirect_uri: "https://app.example.com/other" });
    expect(res.body).toMatchObject({ error: "invalid_grant" });
    expect((await redeem(client, { code, code_verifier: verifier })).status).toBe(200);
  });

  it("a reused code is refused and revokes what it issued (tokens dead, event code_reuse)", async () => {
    const { code, verifier } = await approvedCode(client);
    const first = await redeem(client, { code, code_verifier: verifier });
    expect(first.status).toBe(200);
    const tokens = first.body as Record<string, string>;
    const grantId = decodeJwt(tokens.access_token as string).grant_id as string;
    const second = await redeem(client, { code, code_verifier: verifier });
    expect(second.status).toBe(400);
    expect(second.body).toMatchObject({ error: "invalid_grant" });
    const grant = await env.DB.prepare("SELECT revoked_reason FROM oauth_grants WHERE id = ?").bind(grantId).first();
    expect(grant).toEqual({ revoked_reason: "code_reuse" });
    const events = await env.DB.prepare("SELECT data FROM events WHERE project_id = ? AND type = 'oauth_token.revoked'")
      .bind(p.projectId)
      .all<{ data: string }>();
    expect(events.results.map((e) => JSON.parse(e.data))).toContainEqual({
      client_id: client.clientId,
      grant_id: grantId,
      reason: "code_reuse",
    });
    const refreshed = await postForm(
      p.projectId,
      "token",
      { grant_type: "refresh_token", refresh_token: tokens.refresh_token as string },
      { basic: client },
    );
    expect(refreshed.body).toMatchObject({ error: "invalid_grant" });
    const info = await workerFetch(`${issuerOf(p.projectId)}/oauth/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(info.status).toBe(401);
  });

  it("another client's code, an expired code and an unknown code are invalid_grant", async () => {
    const other = await insertClient(p.projectId);
    const { code, verifier } = await approvedCode(client);
    expect((await redeem(other, { code, code_verifier: verifier })).body).toMatchObject({ error: "invalid_grant" });
    const late = await postForm(
      p.projectId,
      "token",
      { grant_type: "authorization_code", redirect_uri: APP_REDIRECT, code, code_verifier: verifier },
      { basic: client, nowMs: Date.now() + 61_000 },
    );
    expect(late.body).toMatchObject({ error: "invalid_grant" });
    expect((await redeem(client, { code: "nope", code_verifier: verifier })).body).toMatchObject({ error: "invalid_grant" });
    // A pending request has no code; approving it twice fails the second time.
    const { requestId } = await approvedCode(client);
    expect(await approveForTest(requestId, { userId: user.userId })).toBeNull();
  });

  it("a public client redeems with client_id and PKCE only; a confidential one must authenticate", async () => {
    const { res } = await codeFlow(p, publicClient, { userId: user.userId });
    expect(res.status, res.text).toBe(200);
    const { code, verifier } = await approvedCode(client);
    const unauthenticated = await postForm(p.projectId, "token", {
      grant_type: "authorization_code",
      redirect_uri: APP_REDIRECT,
      code,
      code_verifier: verifier,
      client_id: client.clientId,
    });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.body).toMatchObject({ error: "invalid_client" });
    expect(unauthenticated.headers.get("www-authenticate")).toMatch(/^Basic realm=/);
  });

  it("client authentication: wrong secret, the wrong method, two methods, and no client at all", async () => {
    const { code, verifier } = await approvedCode(client);
    const form = { grant_type: "authorization_code", redirect_uri: APP_REDIRECT, code, code_verifier: verifier };
    const wrongSecret = await postForm(p.projectId, "token", form, { basic: { clientId: client.clientId, secret: "dmcs_wrong" } });
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.body).toMatchObject({ error: "invalid_client" });
    // Registered for client_secret_basic: the same secret in the body is the wrong method.
    const posted = await postForm(p.projectId, "token", { ...form, client_id: client.clientId, client_secret: client.secret as string });
    expect(posted.body).toMatchObject({ error: "invalid_client" });
    const both = await postForm(p.projectId, "token", { ...form, client_secret: client.secret as string }, { basic: client });
    expect(both.body).toMatchObject({ error: "invalid_request" });
    const nobody = await postForm(p.projectId, "token", form);
    expect(nobody.status).toBe(401);
    expect((await redeem(client, { code, code_verifier: verifier })).status).toBe(200);
    const postClient = await insertClient(p.projectId, { method: "client_secret_post" });
    const viaPost = await approvedCode(postClient);
    const ok = await postForm(p.projectId, "token", {
      ...form,
      code: viaPost.code,
      code_verifier: viaPost.verifier,
      client_id: postClient.clientId,
      client_secret: postClient.secret as string,
    });
    expect(ok.status, ok.text).toBe(200);
  });

  it("grant types and the error wire: no password or implicit grant, RFC 6749 JSON for malformed requests", async () => {
    const password = await postForm(p.projectId, "token", { grant_type: "password", username: "a", password: "b" }, { basic: client });
    expect(password.body).toMatchObject({ error: "unsupported_grant_type" });
    expect((await postForm(p.projectId, "token", {}, { basic: client })).body).toMatchObject({ error: "invalid_request" });
    const repeated = await workerFetch(`${issuerOf(p.projectId)}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=refresh_token&grant_type=authorization_code",
    });
    expect(repeated.status).toBe(400);
    expect(await repeated.json()).toMatchObject({ error: "invalid_request" });
    const json = await workerFetch(`${issuerOf(p.projectId)}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: 5 }),
    });
    expect(json.status).toBe(400);
    expect(json.headers.get("x-stack-known-error")).toBeNull();
    expect(await json.json()).toMatchObject({ error: "invalid_request" });
    const unreadable = await workerFetch(`${issuerOf(p.projectId)}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/xml" },
      body: "<a/>",
    });
    expect(unreadable.status).toBe(400);
    expect(await unreadable.json()).toMatchObject({ error: "invalid_request" });
    // JSON bodies are read too.
    const { code, verifier } = await approvedCode(publicClient);
    const viaJson = await workerFetch(`${issuerOf(p.projectId)}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        redirect_uri: APP_REDIRECT,
        client_id: publicClient.clientId,
      }),
    });
    expect(viaJson.status).toBe(200);
  });
});
