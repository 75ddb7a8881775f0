/** OAuth authorize and callback: parameter checks, trusted URLs, json/redirect modes, inner state and cookie, timeouts. */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys, signUp, uniqueEmail } from "../helpers/api";
import { APP_CALLBACK, authorizeUrl, CookieJar, fetchWorker, loginAtProvider, oauthFlow } from "../helpers/oauth";

const providers = [
  { id: "github", type: "shared" },
  { id: "spotify", type: "shared" },
];

async function oauthProject(config: Record<string, unknown> = {}) {
  return createProjectWithKeys({ oauth_providers: providers, ...config });
}

async function knownError(res: Response) {
  return { status: res.status, code: res.headers.get("x-stack-known-error"), body: await res.text() };
}

describe("GET /auth/oauth/authorize/{provider}", () => {
  it("redirect mode: 307 to the provider, with the inner-state cookie (HttpOnly, 10 minutes)", async () => {
    const p = await oauthProject();
    const res = await fetchWorker(authorizeUrl(p.client, { extra: { bot_challenge_token: "ignored", some_future_key: "x" } }));
    expect(res.status).toBe(307);
    const location = new URL(res.headers.get("location")!);
    expect(`${location.origin}/`).toBe(new URL(env.OAUTH_MOCK_ISSUER!).origin + "/");
    expect(location.pathname).toBe("/auth");
    expect(location.searchParams.get("client_id")).toBe("MOCK");
    expect(location.searchParams.get("redirect_uri")).toBe("http://localhost/api/v1/auth/oauth/callback/github");
    expect(location.searchParams.get("code_challenge_method")).toBe("S256");
    const innerState = location.searchParams.get("state")!;
    expect(innerState).toMatch(/^[0-9a-z]{45}$/);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`stack-oauth-inner-${innerState}=true`));
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Max-Age=600/i);
    // Development (wrangler.toml ENVIRONMENT): not Secure, so http://localhost works.
    expect(cookie).not.toMatch(/Secure/i);
  });

  it("json mode: 200 {location} and no cookie", async () => {
    const p = await oauthProject();
    const res = await fetchWorker(authorizeUrl(p.client, { responseMode: "json" }));
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual([]);
    const body = (await res.json()) as { location: string };
    expect(new URL(body.location).pathname).toBe("/auth");
  });

  it("stores only the hash of the inner state, valid for 10 minutes", async () => {
    const p = await oauthProject();
    const now = Date.now();
    const res = await fetchWorker(authorizeUrl(p.client), { nowMs: now });
    const innerState = new URL(res.headers.get("location")!).searchParams.get("state")!;
    const rows = await env.DB.prepare(
      "SELECT code_hash, data, expires_at FROM verification_codes WHERE project_id = ? AND purpose = 'oauth_outer_state'",
    )
      .bind(p.projectId)
      .all<{ code_hash: string; data: string; expires_at: number }>();
    expect(rows.results).toHaveLength(1);
    const row = rows.results[0]!;
    expect(row.code_hash).not.toContain(innerState);
    expect(row.data).not.toContain(innerState);
    expect(row.expires_at).toBe(now + 10 * 60 * 1000);
    expect(JSON.parse(row.data).redirect_uri).toBe(APP_CALLBACK);
  });

  it("rejects bad clients, unknown providers, wrong scope and missing parameters", async () => {
    const p = await oauthProject();
    // A known project with a wrong client_secret: the wire names the key at this step.
    expect(await knownError(await fetchWorker(authorizeUrl({ projectId: p.projectId, publishableClientKey: "pck_wrong" })))).toMatchObject({
      status: 401,
      code: "INVALID_PUBLISHABLE_CLIENT_KEY",
    });
    expect(await knownError(await fetchWorker(authorizeUrl({ projectId: "no-such-project" })))).toMatchObject({
      code: "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
    });
    expect(await knownError(await fetchWorker(authorizeUrl(p.client, { provider: "google" })))).toMatchObject({
      status: 400,
      code: "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED",
    });
    const url = new URL(authorizeUrl(p.client));
    url.searchParams.set("scope", "openid");
    expect(await knownError(await fetchWorker(url.toString()))).toMatchObject({ code: "INVALID_SCOPE" });
    url.searchParams.delete("client_id");
    expect(await knownError(await fetchWorker(url.toString()))).toMatchObject({ status: 400, code: "SCHEMA_ERROR" });
  });

  it("refuses untrusted redirect, error and after-callback URLs, before any code or redirect", async () => {
    const p = await oauthProject({ allow_localhost: false, domains: [{ domain: "https://app.example.com", handler_path: "/handler" }] });
    const evil = "https://evil.example.net/cb";
    // The after-callback URL is refused at the authorize step already (the wire's).
    const after = new URL(authorizeUrl(p.client, { redirectUri: "https://app.example.com/handler/oauth-callback" }));
    after.searchParams.set("after_callback_redirect_url", evil);
    const refused = await fetchWorker(after.toString());
    expect(refused.headers.get("location")).toBeNull();
    expect(await knownError(refused)).toMatchObject({ status: 400, code: "REDIRECT_URL_NOT_WHITELISTED" });
    for (const extra of [{ redirect_uri: evil }, { error_redirect_url: evil }]) {
      const url = new URL(authorizeUrl(p.client, { redirectUri: "https://app.example.com/handler/oauth-callback" }));
      url.searchParams.set("error_redirect_url", "https://app.example.com/handler/error");
      for (const [k, v] of Object.entries(extra)) url.searchParams.set(k, v);
      // As the reference: the authorize step goes to the provider; the callback refuses.
      const start = await fetchWorker(url.toString());
      expect(start.status).toBe(307);
      const jar = new CookieJar();
      jar.store(start);
      const providerCallback = await loginAtProvider(start.headers.get("location")!, uniqueEmail("evil"));
      const res = await fetchWorker(providerCallback, { headers: { cookie: jar.header() } });
      expect(res.headers.get("location")).toBeNull();
      expect(await knownError(res)).toMatchObject({ status: 400, code: "REDIRECT_URL_NOT_WHITELISTED" });
    }
    const ok = new URL(authorizeUrl(p.client, { redirectUri: "https://app.example.com/handler/oauth-callback" }));
    ok.searchParams.set("error_redirect_url", "https://app.example.com/handler/error");
    const start = await fetchWorker(ok.toString());
    const jar = new CookieJar();
    jar.store(start);
    const res = await fetchWorker(await loginAtProvider(start.headers.get("location")!, uniqueEmail("good")), {
      headers: { cookie: jar.header() },
    });
    expect(res.status).toBe(303);
    expect(new URL(res.headers.get("location")!).origin).toBe("https://app.example.com");
  });

  it("limits authorize requests per IP", async () => {
    const p = await oauthProject();
    const headers = { "cf-connecting-ip": "203.0.113.77" };
    for (let i = 0; i < 60; i++)
      expect((await fetchWorker(authorizeUrl(p.client, { responseMode: "json" }), { headers })).status).toBe(200);
    const limited = await fetchWorker(authorizeUrl(p.client, { responseMode: "json" }), { headers });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("extra provider scopes are refused with shared keys; link needs a token", async () => {
    const p = await oauthProject();
    expect(await knownError(await fetchWorker(authorizeUrl(p.client, { extra: { provider_scope: "repo" } })))).toMatchObject({
      code: "OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS",
    });
    const link = await fetchWorker(authorizeUrl(p.client, { type: "link" }));
    expect(link.status).toBe(400);
    expect(await knownError(await fetchWorker(authorizeUrl(p.client, { token: "not-a-jwt" })))).toMatchObject({
      status: 401,
      code: "UNPARSABLE_ACCESS_TOKEN",
    });
  });

  it("an expired token is ACCESS_TOKEN_EXPIRED (the SDK refreshes on it), not unparsable", async () => {
    const p = await oauthProject();
    const user = await signUp(p.client);
    const later = Date.now() + 2 * 3600 * 1000;
    const res = await fetchWorker(authorizeUrl(p.client, { type: "link", token: user.accessToken }), { nowMs: later });
    expect(await knownError(res)).toMatchObject({ status: 401, code: "ACCESS_TOKEN_EXPIRED" });
  });
});

describe("GET|POST /auth/oauth/callback/{provider}", () => {
  it("completes with a 303 to redirect_uri carrying exactly code and state", async () => {
    const p = await oauthProject();
    const flow = await oauthFlow(p.client, uniqueEmail("cb"), { state: "my-outer-state" });
    expect(flow.callback.status).toBe(303);
    expect(`${flow.location.origin}${flow.location.pathname}`).toBe(APP_CALLBACK);
    expect([...flow.location.searchParams.keys()].sort()).toEqual(["code", "state"]);
    expect(flow.state).toBe("my-outer-state");
    expect(flow.code).toMatch(/^[0-9a-z]{45}$/);
  });

  it("refuses a callback without the inner cookie (redirect mode), an unknown state, and a replayed state", async () => {
    const p = await oauthProject();
    const start = await fetchWorker(authorizeUrl(p.client));
    const jar = new CookieJar();
    jar.store(start);
    const providerCallback = await loginAtProvider(start.headers.get("location")!, uniqueEmail("nocookie"));
    const withoutCookie = await fetchWorker(providerCallback);
    expect(withoutCookie.status).toBe(400);
    expect(await withoutCookie.text()).toMatch(/cookie/i);

    const bogus = new URL(providerCallback);
    bogus.searchParams.set("state", "0".repeat(45));
    expect((await fetchWorker(bogus.toString(), { headers: { cookie: jar.header() } })).status).toBe(400);

    // State issued for github, presented at spotify's callback.
    const otherProvider = providerCallback.replace("/callback/github", "/callback/spotify");
    expect((await fetchWorker(otherProvider, { headers: { cookie: jar.header() } })).status).toBe(400);

    const ok = await fetchWorker(providerCallback, { headers: { cookie: jar.header() } });
    expect(ok.status).toBe(303);
    // The flow's cookie is spent: the callback clears it.
    const innerState = new URL(providerCallback).searchParams.get("state")!;
    expect(ok.headers.getSetCookie()).toContainEqual(expect.stringMatching(new RegExp(`^stack-oauth-inner-${innerState}=;.*Max-Age=0`)));
    const replay = await fetchWorker(providerCallback, { headers: { cookie: jar.header() } });
    expect(replay.status).toBe(400);
  });

  it("json mode needs no cookie", async () => {
    const p = await oauthProject();
    const start = await fetchWorker(authorizeUrl(p.client, { responseMode: "json" }));
    const { location } = (await start.json()) as { location: string };
    const providerCallback = await loginAtProvider(location, uniqueEmail("json"));
    const res = await fetchWorker(providerCallback);
    expect(res.status).toBe(303);
    expect(new URL(res.headers.get("location")!).searchParams.get("code")).toHaveLength(45);
  });

  it("accepts the provider's answer as a form POST (form_post providers)", async () => {
    const p = await oauthProject();
    const start = await fetchWorker(authorizeUrl(p.client, { responseMode: "json" }));
    const providerCallback = new URL(await loginAtProvider(((await start.json()) as { location: string }).location, uniqueEmail("post")));
    const res = await fetchWorker(`${providerCallback.origin}${providerCallback.pathname}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: providerCallback.searchParams.toString(),
    });
    expect(res.status).toBe(303);
    expect(new URL(res.headers.get("location")!).searchParams.get("code")).toHaveLength(45);
  });

  it("a provider that denies access sends OAUTH_PROVIDER_ACCESS_DENIED to the error URL", async () => {
    const p = await oauthProject();
    const start = await fetchWorker(authorizeUrl(p.client, { responseMode: "json" }));
    const innerState = new URL(((await start.json()) as { location: string }).location).searchParams.get("state")!;
    const res = await fetchWorker(`http://localhost/api/v1/auth/oauth/callback/github?state=${innerState}&error=access_denied`);
    expect(res.status).toBe(307);
    const location = new URL(res.headers.get("location")!);
    expect(location.pathname).toBe("/handler/error");
    expect(location.searchParams.get("errorCode")).toBe("OAUTH_PROVIDER_ACCESS_DENIED");
  });

  it("answers OUTER_OAUTH_TIMEOUT after 10 minutes", async () => {
    const p = await oauthProject();
    const t0 = Date.now();
    const start = await fetchWorker(authorizeUrl(p.client), { nowMs: t0 });
    const jar = new CookieJar();
    jar.store(start);
    const providerCallback = await loginAtProvider(start.headers.get("location")!, uniqueEmail("late"));
    const late = await fetchWorker(providerCallback, { headers: { cookie: jar.header() }, nowMs: t0 + 10 * 60 * 1000 + 1 });
    expect(await knownError(late)).toMatchObject({ status: 408, code: "OUTER_OAUTH_TIMEOUT" });
  });

  it("sends known errors to error_redirect_url (307) with error=server_error, errorCode, message and details", async () => {
    const p = await oauthProject({ sign_up_enabled: false });
    const flow = await oauthFlow(p.client, uniqueEmail("nosignup"));
    expect(flow.callback.status).toBe(307);
    // An error redirect also clears the flow's cookie.
    expect(flow.callback.headers.getSetCookie()).toContainEqual(expect.stringMatching(/^stack-oauth-inner-[0-9a-z]+=;.*Max-Age=0/));
    expect(`${flow.location.origin}${flow.location.pathname}`).toBe("http://localhost:3000/handler/error");
    expect(flow.location.searchParams.get("error")).toBe("server_error");
    expect(flow.location.searchParams.get("errorCode")).toBe("SIGN_UP_NOT_ENABLED");
    expect(flow.location.searchParams.get("message")).toBeTruthy();
    expect(flow.location.searchParams.get("error_description")).toBe(flow.location.searchParams.get("message"));
    expect(JSON.parse(flow.location.searchParams.get("details")!)).toEqual({});
  });
});

describe("project config", () => {
  it("refuses unknown provider ids (shared and standard)", async () => {
    const p = await oauthProject();
    const shared = await call("/internal/projects/current", {
      ...p.admin,
      method: "PATCH",
      body: { config: { oauth_providers: [{ id: "myspace", type: "shared" }] } },
    });
    expect(shared.status).toBe(400);
    expect(shared.body).toMatchObject({ code: "INVALID_SHARED_OAUTH_PROVIDER_ID", details: { provider_id: "myspace" } });
    const standard = await call("/internal/projects/current", {
      ...p.admin,
      method: "PATCH",
      body: { config: { oauth_providers: [{ id: "friendster", type: "standard", client_id: "a", client_secret: "b" }] } },
    });
    expect(standard.body).toMatchObject({ code: "INVALID_STANDARD_OAUTH_PROVIDER_ID", details: { provider_id: "friendster" } });
  });
});
