/**
 * The OpenID Foundation's Basic OP plan (oidcc-basic-certification-test-plan), module by module, at
 * the API level (issue 30; docs/oauth-provider.md "Conformance"): each `it` is named after the module
 * and asserts what that module checks, through the real authorize → consent API (view, approve) →
 * token → userinfo, against real workerd and D1. The suite itself was not run; where Doorman differs
 * from the suite's request (it requires PKCE S256 of every client), the requests here carry PKCE.
 */
import { env } from "cloudflare:test";
import { createLocalJWKSet, decodeJwt, type JWTPayload, jwtVerify } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { type CallResult, call, type SignedUp, signUp } from "../helpers/api";
import {
  APP_REDIRECT,
  authorize,
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

/** The consent page's API (worker/routes/oauth-provider/consent.ts). */
const REQUESTS = "/oauth-provider/authorization-requests";

type User = SignedUp & { sessionId: string };
type Tokens = { access_token: string; id_token: string; refresh_token?: string; scope: string };
type Flow = { tokens: Tokens; id: JWTPayload; view: Record<string, unknown>; requestId: string };

let p: ProviderProject;
let basicClient: TestClient;
let user: User;

beforeAll(async () => {
  p = await providerProject();
  basicClient = await insertClient(p.projectId);
  user = await newUser();
});

async function newUser(): Promise<User> {
  const signed = await signUp(p.client);
  return { ...signed, sessionId: decodeJwt(signed.accessToken).refresh_token_id as string };
}

const asUser = (who: User) => ({ ...p.client, accessToken: who.accessToken });
const viewOf = (requestId: string, who: User) => call(`${REQUESTS}/${requestId}`, asUser(who));
const approve = (requestId: string, who: User) => call(`${REQUESTS}/${requestId}/approve`, { ...asUser(who), body: {} });

async function verifyIdToken(idToken: string, client: TestClient): Promise<JWTPayload> {
  const jwks = (await (await workerFetch(`${issuerOf(p.projectId)}/.well-known/jwks.json`)).json()) as { keys: [] };
  const { payload } = await jwtVerify(idToken, createLocalJWKSet(jwks), {
    issuer: issuerOf(p.projectId),
    audience: client.clientId,
    algorithms: ["ES256"],
  });
  return payload;
}

/** The code's redirect after approve: the app's redirect URI with code, state and iss (RFC 9207). */
function codeOf(approved: CallResult, state: string | undefined): string {
  expect(approved.status, approved.text).toBe(200);
  const url = new URL(approved.body.redirect_url);
  expect(`${url.origin}${url.pathname}`).toBe(APP_REDIRECT);
  expect(url.searchParams.get("state")).toBe(state ?? null);
  expect(url.searchParams.get("iss")).toBe(issuerOf(p.projectId));
  expect(url.searchParams.has("error")).toBe(false);
  return url.searchParams.get("code") as string;
}

/** POST /oauth/token for a code, authenticated as the client registered (basic or post). */
function redeem(client: TestClient, code: string, verifier: string, auth: "basic" | "post", nowMs?: number) {
  const form: Record<string, string> = { grant_type: "authorization_code", code, redirect_uri: APP_REDIRECT, code_verifier: verifier };
  if (auth === "basic") return postForm(p.projectId, "token", form, { basic: client, nowMs });
  return postForm(p.projectId, "token", { ...form, client_id: client.clientId, client_secret: client.secret as string }, { nowMs });
}

/**
 * One whole authorization: authorize (GET, or a POST form) with the extra parameters, the consent
 * page's view and approve for the signed-in user, the code for tokens, and the ID token verified
 * against the JWKS (signature, iss, aud, nonce). Answers the tokens, the ID token's claims and the view.
 */
async function completeFlow(
  o: { extra?: Record<string, string>; method?: "GET" | "POST"; client?: TestClient; who?: User; auth?: "basic" | "post" } = {},
): Promise<Flow & { code: string; verifier: string }> {
  const client = o.client ?? basicClient;
  const who = o.who ?? user;
  const { verifier, challenge } = await pkce();
  const params = codeRequest(client.clientId, challenge, o.extra);
  const res = await authorize(p.projectId, params, o.method ?? "GET");
  expect(res.status).toBe(o.method === "POST" ? 303 : 302);
  expect(res.headers.get("location")).toContain("/oauth-consent?request_id=");
  const requestId = requestIdOf(res);
  const view = await viewOf(requestId, who);
  expect(view.status, view.text).toBe(200);
  const code = codeOf(await approve(requestId, who), params.state as string | undefined);
  const token = await redeem(client, code, verifier, o.auth ?? "basic");
  expect(token.status, token.text).toBe(200);
  const tokens = token.body as Tokens;
  const id = await verifyIdToken(tokens.id_token, client);
  expect(id).toMatchObject({ sub: who.userId, nonce: params.nonce });
  expect(id.auth_time).toBeTypeOf("number");
  return { tokens, id, view: view.body, requestId, code, verifier };
}

/** The error parameters of a refusal sent back to the app (RFC 6749 §4.1.2.1). */
function redirectError(res: Response): Record<string, string> {
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get("location") as string);
  expect(`${location.origin}${location.pathname}`).toBe(APP_REDIRECT);
  return Object.fromEntries(location.searchParams);
}

/** A refusal shown to the user: a plain 400, never a redirect (RFC 6749 §4.1.2.1, first paragraph). */
async function errorPage(res: Response): Promise<string> {
  expect(res.status).toBe(400);
  expect(res.headers.get("location")).toBeNull();
  expect(res.headers.get("content-type")).toContain("text/plain");
  return res.text();
}

const pendingRequestsOf = async (clientId: string) =>
  (
    await env.DB.prepare("SELECT COUNT(*) AS n FROM oauth_authorization_requests WHERE project_id = ? AND client_id = ?")
      .bind(p.projectId, clientId)
      .first<{ n: number }>()
  )?.n ?? 0;

/** An unsigned request object (Core §6.1, alg none), as the suite builds it from the request's parameters. */
function unsignedRequestObject(claims: Record<string, unknown>): string {
  const part = (value: unknown) => btoa(JSON.stringify(value)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return `${part({ alg: "none" })}.${part(claims)}.`;
}

const userinfo = (token: string) =>
  workerFetch(`${issuerOf(p.projectId)}/oauth/userinfo`, { headers: { authorization: `Bearer ${token}` } });

describe("OpenID Foundation Basic OP plan, at the API level", () => {
  it("oidcc-response-type-missing", async () => {
    // RFC 6749 §4.1.2.1: the client and redirect URI are good, so a missing required parameter goes back
    // to the app as invalid_request (the module accepts that or unsupported_response_type, or an error page).
    const client = await insertClient(p.projectId);
    const { challenge } = await pkce();
    const { response_type: _omit, ...params } = codeRequest(client.clientId, challenge);
    const err = redirectError(await authorize(p.projectId, params));
    expect(err).toEqual({
      error: "invalid_request",
      error_description: "response_type is required.",
      state: "st-123",
      iss: issuerOf(p.projectId),
    });
    // No code, and nothing pending for a consent page to approve.
    expect(await pendingRequestsOf(client.clientId)).toBe(0);
  });

  it("oidcc-ensure-post-request-succeeds", async () => {
    // OIDC Core §3.1.2.1: the authorization endpoint takes POST (form-encoded) as well as GET.
    const flow = await completeFlow({ method: "POST" });
    expect(flow.tokens.scope).toBe("openid profile email offline_access");
  });

  it("oidcc-server-client-secret-post", async () => {
    // The oidcc-server flow, with the client authenticating by client_id and client_secret in the form (RFC 6749 §2.3.1).
    const postClient = await insertClient(p.projectId, { method: "client_secret_post" });
    const flow = await completeFlow({ client: postClient, auth: "post" });
    expect(flow.id).toMatchObject({ azp: postClient.clientId, email: user.email, amr: ["pwd"] });
    const info = await userinfo(flow.tokens.access_token);
    expect(info.status).toBe(200);
    expect(await info.json()).toMatchObject({ sub: user.userId, email: user.email });
  });

  it("oidcc-ensure-request-with-unknown-parameter-succeeds", async () => {
    // RFC 6749 §3.1: the authorization server MUST ignore unrecognized request parameters.
    const flow = await completeFlow({ extra: { extra_param: "ignored", "x-vendor": "{not json" } });
    expect(flow.id.sub).toBe(user.userId);
  });

  it("oidcc-prompt-none-logged-in", async () => {
    // Two authorizations by a signed-in user; the second with prompt=none must not ask anything (Core §3.1.2.1).
    const who = await newUser();
    const first = await completeFlow({ who });
    const second = await completeFlow({ who, extra: { prompt: "none" } });
    // The consent page passes at once: a remembered consent covers it and the session is fresh enough.
    expect(second.view).toMatchObject({ prompt: ["none"], consent_required: false, reauthentication_required: false });
    expect(second.id.sub).toBe(first.id.sub);
    expect(second.id.auth_time).toBe(first.id.auth_time);
  });

  it("oidcc-max-age-10000", async () => {
    // A sign-in two hours old is younger than max_age=10000 s: it is used as it is, no new sign-in (Core §3.1.2.1).
    const who = await newUser();
    const first = await completeFlow({ who });
    const twoHours = 2 * 3600_000;
    await env.DB.prepare("UPDATE sessions SET created_at = created_at - ? WHERE id = ?").bind(twoHours, who.sessionId).run();
    const second = await completeFlow({ who, extra: { max_age: "10000" } });
    expect(second.view).toMatchObject({ consent_required: false, reauthentication_required: false });
    expect(second.id.sub).toBe(first.id.sub);
    // auth_time is present (Core §2: required with max_age) and is the session's sign-in, two hours back.
    expect(second.id.auth_time).toBe((first.id.auth_time as number) - twoHours / 1000);
    // The same session is too old for max_age=3600: max_age is really weighed, not ignored.
    const { challenge } = await pkce();
    const strict = requestIdOf(await authorize(p.projectId, codeRequest(basicClient.clientId, challenge, { max_age: "3600" })));
    expect((await viewOf(strict, who)).body.reauthentication_required).toBe(true);
  });

  it("oidcc-login-hint", async () => {
    const flow = await completeFlow({ extra: { login_hint: user.email } });
    expect(flow.id.email).toBe(user.email);
  });

  it("oidcc-ui-locales", async () => {
    const flow = await completeFlow({ extra: { ui_locales: "se" } });
    expect(flow.id.sub).toBe(user.userId);
  });

  it("oidcc-claims-locales", async () => {
    const flow = await completeFlow({ extra: { claims_locales: "se" } });
    expect(flow.id.sub).toBe(user.userId);
  });

  it("oidcc-ensure-request-with-acr-values-succeeds", async () => {
    // acr_values is a voluntary request (Core §3.1.2.1): accepted; acr is only claimed for a multi-factor sign-in.
    const flow = await completeFlow({ extra: { acr_values: "1 2" } });
    expect(flow.id).not.toHaveProperty("acr");
  });

  it("oidcc-display-page", async () => {
    const flow = await completeFlow({ extra: { display: "page" } });
    expect(flow.id.sub).toBe(user.userId);
  });

  it("oidcc-display-popup", async () => {
    const flow = await completeFlow({ extra: { display: "popup" } });
    expect(flow.id.sub).toBe(user.userId);
  });

  it("oidcc-id-token-hint", async () => {
    // The second authorization sends prompt=none with the first ID token as id_token_hint: it passes at once.
    const who = await newUser();
    const first = await completeFlow({ who });
    const second = await completeFlow({ who, extra: { prompt: "none", id_token_hint: first.tokens.id_token } });
    expect(second.view).toMatchObject({ consent_required: false, reauthentication_required: false });
    expect(second.id.sub).toBe(first.id.sub);
    expect(second.id.auth_time).toBe(first.id.auth_time);
  });

  it("oidcc-scope-all", async () => {
    // Every scope Doorman offers at once: the tokens, the ID token's claims and userinfo carry all of them.
    const flow = await completeFlow({ extra: { scope: "openid profile email offline_access" } });
    expect(flow.tokens.scope).toBe("openid profile email offline_access");
    expect(flow.tokens.refresh_token).toMatch(/^dmrt_/);
    expect(flow.id).toMatchObject({ email: user.email, email_verified: false });
    const info = await userinfo(flow.tokens.access_token);
    expect(await info.json()).toMatchObject({ sub: user.userId, email: user.email, email_verified: false });

    // address and phone are not offered (discovery's scopes_supported lacks them, so the suite skips them).
    const metadata = (await (await workerFetch(`${issuerOf(p.projectId)}/.well-known/openid-configuration`)).json()) as {
      scopes_supported: string[];
    };
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(["openid", "profile", "email", "offline_access"]));
    expect(metadata.scopes_supported).not.toContain("address");
    expect(metadata.scopes_supported).not.toContain("phone");
    // Asked for anyway, Doorman refuses rather than ignores (RFC 6749 §3.3 and §4.1.2.1: invalid_scope).
    const { challenge } = await pkce();
    for (const scope of ["openid profile email address phone", "openid phone"]) {
      const err = redirectError(await authorize(p.projectId, codeRequest(basicClient.clientId, challenge, { scope })));
      expect(err, scope).toMatchObject({ error: "invalid_scope", state: "st-123", iss: issuerOf(p.projectId) });
    }
  });

  it("oidcc-codereuse-30seconds", async () => {
    const who = await newUser();
    const flow = await completeFlow({ who });
    const grantId = decodeJwt(flow.tokens.access_token).grant_id as string;
    // 30 seconds after the first use (the code itself would still be within its 60 s): refused, invalid_grant.
    const replay = await redeem(basicClient, flow.code, flow.verifier, "basic", Date.now() + 30_000);
    expect(replay.status).toBe(400);
    expect(replay.body).toMatchObject({ error: "invalid_grant" });
    // RFC 6749 §4.1.2 / RFC 9700 §4.5: what the code issued is revoked.
    const grant = await env.DB.prepare("SELECT revoked_reason FROM oauth_grants WHERE id = ?").bind(grantId).first();
    expect(grant).toEqual({ revoked_reason: "code_reuse" });
    expect((await userinfo(flow.tokens.access_token)).status).toBe(401);
    const refreshed = await postForm(
      p.projectId,
      "token",
      { grant_type: "refresh_token", refresh_token: flow.tokens.refresh_token as string },
      { basic: basicClient },
    );
    expect(refreshed.body).toMatchObject({ error: "invalid_grant" });
  });

  it("oidcc-ensure-redirect-uri-in-authorization-request", async () => {
    // Core §3.1.2.1 requires redirect_uri; without it there is nowhere known-good to send an error (RFC 6749 §4.1.2.1).
    const client = await insertClient(p.projectId);
    const { challenge } = await pkce();
    const { redirect_uri: _omit, ...params } = codeRequest(client.clientId, challenge);
    expect(await errorPage(await authorize(p.projectId, params))).toMatch(/no redirect_uri/);
    expect(await pendingRequestsOf(client.clientId)).toBe(0);
  });

  it("oidcc-unsigned-request-object-supported-correctly-or-rejected-as-unsupported", async () => {
    // The suite's request: the parameters in an unsigned request object, with response_type, client_id,
    // scope and redirect_uri repeated outside it. Doorman does not support request objects and says so
    // (Core §3.1.2.6 request_not_supported, one of the module's two allowed answers), as discovery announces.
    const client = await insertClient(p.projectId);
    const { challenge } = await pkce();
    const params = codeRequest(client.clientId, challenge);
    const request = unsignedRequestObject({ ...params, iss: client.clientId, aud: issuerOf(p.projectId) });
    const outside = { response_type: "code", client_id: client.clientId, scope: "openid", redirect_uri: APP_REDIRECT, request };
    const err = redirectError(await authorize(p.projectId, outside));
    // No state: it was only inside the object, which is not read.
    expect(err).toEqual({
      error: "request_not_supported",
      error_description: "Request objects are not supported.",
      iss: issuerOf(p.projectId),
    });
    expect(await pendingRequestsOf(client.clientId)).toBe(0);
    const metadata = (await (await workerFetch(`${issuerOf(p.projectId)}/.well-known/openid-configuration`)).json()) as Record<
      string,
      unknown
    >;
    expect(metadata).toMatchObject({ request_parameter_supported: false, request_uri_parameter_supported: false });
  });

  it("oidcc-ensure-request-object-with-redirect-uri", async () => {
    // A good redirect_uri inside the request object, an unregistered one outside: the module accepts an
    // invalid redirect_uri error page. Doorman never reads the object, and never redirects to either URI.
    const client = await insertClient(p.projectId);
    const { challenge } = await pkce();
    const params = codeRequest(client.clientId, challenge);
    const request = unsignedRequestObject({ ...params, iss: client.clientId, aud: issuerOf(p.projectId) });
    const res = await authorize(p.projectId, { ...params, redirect_uri: "https://evil.example/cb", request });
    expect(await errorPage(res)).toMatch(/redirect_uri is not one this app registered/);
    expect(await pendingRequestsOf(client.clientId)).toBe(0);
  });

  it("oidcc-claims-essential", async () => {
    // claims={"userinfo":{"name":{"essential":true}}}: Doorman does not support the claims parameter
    // (discovery: claims_parameter_supported false), so it is ignored as an unknown parameter (RFC 6749
    // §3.1). The flow succeeds; userinfo answers what the scope allows, and a claim not returned is no
    // error (Core §5.5.1). The module only warns when name is missing.
    const claims = JSON.stringify({ userinfo: { name: { essential: true } } });
    const flow = await completeFlow({ extra: { scope: "openid", claims } });
    expect(flow.tokens.scope).toBe("openid");
    const info = await userinfo(flow.tokens.access_token);
    expect(info.status).toBe(200);
    expect(await info.json()).toEqual({ sub: user.userId });
    const metadata = (await (await workerFetch(`${issuerOf(p.projectId)}/.well-known/openid-configuration`)).json()) as Record<
      string,
      unknown
    >;
    expect(metadata.claims_parameter_supported).toBe(false);
  });
});
