/**
 * Enterprise SSO sign-in through an OIDC connection (issue 31, FLOW) against the bundled oidc-provider
 * (scripts/oidc-dev-server.mjs, confidential client DOORMAN-SSO): who signs in (a new user at a verified
 * domain with the email verified; at an unverified domain with the email unverified and never merged;
 * an existing user linked; a SCIM-provisioned identity claimed; a deactivated identity refused), JIT
 * membership with the team's default permissions, the events and amr of the session, the request's
 * one-time use, PKCE binding, and the outer code exchanged by the real SDK client.
 */
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { StackClientApp } from "../../sdk/src";
import type { CookieJar } from "../../sdk/src/session/token-store";
import { createDb } from "../../worker/db/client";
import { ssoIdentities } from "../../worker/db/schema";
import { call, signUp } from "../helpers/api";
import { exchangeCode, fetchWorker, loginAtProvider, randomVerifier, s256 } from "../helpers/oauth";
import {
  insertDomain,
  insertOidcConnection,
  redirectedError,
  type SsoProject,
  ssoAuthorizeUrl,
  ssoFlow,
  ssoProject,
  startSso,
  uniqueDomain,
} from "../helpers/sso-flow";
import { workerFetch } from "../helpers/worker-fetch";

const APP = "http://localhost:3000";
const db = () => createDb(env.DB);
const sessionOf = (accessToken: string) => decodeJwt(accessToken).refresh_token_id as string;

/** authorize (S256) → IdP login → callback → token exchange: the tokens. */
async function signInWithSso(p: SsoProject, loginEmail: string, target: { email?: string; connectionId?: string }) {
  const verifier = randomVerifier();
  const flow = await ssoFlow(p.client, loginEmail, { ...target, challenge: await s256(verifier) });
  expect(flow.callback.status, flow.location.toString()).toBe(303);
  expect(flow.state).toBe("outer-state-sso");
  const res = await exchangeCode(p.client, flow.code, verifier);
  expect(res.status, res.text).toBe(200);
  const body = res.body as { access_token: string; refresh_token: string; is_new_user: boolean };
  return { ...body, user_id: decodeJwt(body.access_token).sub as string };
}

/** The signed-in user as the server sees it (with primary_email_auth_enabled). */
async function me(p: SsoProject, accessToken: string) {
  const res = await call(`/users/${decodeJwt(accessToken).sub}`, p.server);
  expect(res.status, res.text).toBe(200);
  return res.body as { id: string; primary_email: string | null; primary_email_verified: boolean; primary_email_auth_enabled: boolean };
}

async function eventsOf(p: SsoProject, type: string) {
  const res = await call(`/internal/events?type=${type}`, p.admin);
  expect(res.status, res.text).toBe(200);
  return res.body.items as { type: string; user_id: string | null; team_id: string | null; data: Record<string, unknown> }[];
}

async function memberPermissions(p: SsoProject, userId: string): Promise<string[] | null> {
  const res = await call(`/team-permissions?team_id=${p.teamId}&user_id=${userId}`, p.server);
  expect(res.status, res.text).toBe(200);
  const member = await call(`/team-member-profiles?team_id=${p.teamId}&user_id=${userId}`, p.server);
  if (member.status !== 200 || member.body.items.length === 0) return null;
  return (res.body.items as { id: string }[]).map((i) => i.id).sort();
}

describe("SSO sign-in: who signs in", () => {
  it("a new user at the team's verified domain: email verified and usable; sso.signed_in and sign_in.succeeded (method sso) with the session; amr from the IdP", async () => {
    const p = await ssoProject();
    const connectionId = await insertOidcConnection(p);
    const domain = uniqueDomain();
    await insertDomain(p, domain);
    const email = `ada@${domain}`;
    const tokens = await signInWithSso(p, email, { email });
    expect(tokens.is_new_user).toBe(true);
    const user = await me(p, tokens.access_token);
    expect(user).toMatchObject({ primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true });

    const [signedIn] = await eventsOf(p, "sso.signed_in");
    expect(signedIn).toMatchObject({ user_id: user.id, team_id: p.teamId });
    expect(signedIn!.data).toMatchObject({ connection_id: connectionId, protocol: "oidc", idp_initiated: false, is_new_user: true });
    const [succeeded] = await eventsOf(p, "sign_in.succeeded");
    expect(succeeded!.data).toMatchObject({ method: "sso", provider: `sso:${connectionId}` });
    expect(succeeded!.data).not.toHaveProperty("sso");
    const row = await env.DB.prepare("SELECT amr FROM sessions WHERE id = ?").bind(sessionOf(tokens.access_token)).first<{ amr: string }>();
    // The dev IdP reports amr ["pwd"]: a registered RFC 8176 value, passed through.
    expect(JSON.parse(row!.amr)).toEqual(["pwd"]);

    // The same IdP subject signs in as the same user again.
    const again = await signInWithSso(p, email, { connectionId });
    expect(again.is_new_user).toBe(false);
    expect((await me(p, again.access_token)).id).toBe(user.id);
  });

  it("at a domain the team has NOT verified: the email is stored unverified, not used for sign-in, never merged with its owner", async () => {
    const p = await ssoProject();
    const connectionId = await insertOidcConnection(p);
    const domain = uniqueDomain("unverified");
    await insertDomain(p, domain, { status: "pending" });
    const email = `grace@${domain}`;
    const owner = await signUp(p.client, email);
    const tokens = await signInWithSso(p, email, { connectionId });
    expect(tokens.is_new_user).toBe(true);
    const user = await me(p, tokens.access_token);
    expect(user.id).not.toBe(owner.userId);
    expect(user).toMatchObject({ primary_email: email, primary_email_verified: false, primary_email_auth_enabled: false });
    // The password owner still signs in as themselves.
    const password = await call("/auth/password/sign-in", { ...p.client, body: { email, password: owner.password } });
    expect(password.status, password.text).toBe(200);
    expect(password.body.user_id).toBe(owner.userId);
  });

  it("another team's verified domain proves nothing for this connection", async () => {
    const p = await ssoProject();
    const other = await call("/teams", { ...p.server, body: { display_name: "Other" } });
    const domain = uniqueDomain("other");
    await insertDomain(p, domain, { teamId: other.body.id });
    const connectionId = await insertOidcConnection(p);
    const email = `eve@${domain}`;
    const owner = await signUp(p.client, email);
    const tokens = await signInWithSso(p, email, { connectionId });
    const user = await me(p, tokens.access_token);
    expect(user.id).not.toBe(owner.userId);
    expect(user.primary_email_verified).toBe(false);
  });

  it("an existing user whose email is at the team's verified domain is linked, not duplicated", async () => {
    const p = await ssoProject();
    const connectionId = await insertOidcConnection(p);
    const domain = uniqueDomain();
    await insertDomain(p, domain);
    const existing = await signUp(p.client, `linus@${domain}`);
    const tokens = await signInWithSso(p, `LINUS@${domain}`, { email: `linus@${domain}` });
    expect(tokens.is_new_user).toBe(false);
    expect(tokens.user_id).toBe(existing.userId);
    const identity = await db()
      .select()
      .from(ssoIdentities)
      .where(and(eq(ssoIdentities.connectionId, connectionId), eq(ssoIdentities.userId, existing.userId)))
      .get();
    expect(identity?.subject).toMatch(/^mock-/);
  });

  it("JIT: a verified domain with auto_join adds the user to the team with its default member permissions, once", async () => {
    const p = await ssoProject();
    await insertOidcConnection(p);
    const domain = uniqueDomain();
    await insertDomain(p, domain, { autoJoin: true });
    const email = `jit@${domain}`;
    const tokens = await signInWithSso(p, email, { email });
    expect(await memberPermissions(p, tokens.user_id)).toEqual(["$read_members"]);
    const [signedIn] = await eventsOf(p, "sso.signed_in");
    expect(signedIn!.data).toMatchObject({ joined_team: true });
    const joins = (await eventsOf(p, "team_membership.created")).filter((e) => e.team_id === p.teamId && e.user_id === tokens.user_id);
    expect(joins).toHaveLength(1);
    // A second sign-in does not add again.
    await signInWithSso(p, email, { email });
    expect((await eventsOf(p, "sso.signed_in"))[0]!.data).toMatchObject({ joined_team: false });
  });

  it("without auto_join nobody is added to the team", async () => {
    const p = await ssoProject();
    await insertOidcConnection(p);
    const domain = uniqueDomain();
    await insertDomain(p, domain);
    const tokens = await signInWithSso(p, `nojit@${domain}`, { email: `nojit@${domain}` });
    expect(await memberPermissions(p, tokens.user_id)).toBeNull();
  });

  it("a SCIM-provisioned identity (no subject yet) is claimed by its first sign-in, matched by userName = email", async () => {
    const p = await ssoProject();
    const connectionId = await insertOidcConnection(p);
    const domain = uniqueDomain();
    await insertDomain(p, domain);
    const email = `provisioned@${domain}`;
    const user = await call("/users", { ...p.server, body: { primary_email: email, primary_email_verified: true } });
    expect(user.status, user.text).toBe(201);
    const now = Date.now();
    await db().insert(ssoIdentities).values({
      id: crypto.randomUUID(),
      projectId: p.projectId,
      connectionId,
      userId: user.body.id,
      subject: null,
      userName: email.toUpperCase(),
      createdAt: now,
      updatedAt: now,
    });
    const tokens = await signInWithSso(p, email, { email });
    expect(tokens.user_id).toBe(user.body.id);
    const identity = await db().select().from(ssoIdentities).where(eq(ssoIdentities.userId, user.body.id)).get();
    expect(identity?.subject).toMatch(/^mock-/);
  });

  it("a deactivated identity is refused (SSO_USER_DEACTIVATED at the app's error URL) and the refusal is an event", async () => {
    const p = await ssoProject();
    const connectionId = await insertOidcConnection(p);
    const domain = uniqueDomain();
    await insertDomain(p, domain);
    const email = `gone@${domain}`;
    const tokens = await signInWithSso(p, email, { email });
    await db().update(ssoIdentities).set({ active: false }).where(eq(ssoIdentities.userId, tokens.user_id));
    const flow = await ssoFlow(p.client, email, { email });
    expect(flow.callback.status).toBe(307);
    expect(flow.location.origin + flow.location.pathname).toBe(`${APP}/handler/error`);
    expect(redirectedError(flow.location).code).toBe("SSO_USER_DEACTIVATED");
    const [refused] = await eventsOf(p, "sso.sign_in_refused");
    expect(refused).toMatchObject({
      team_id: p.teamId,
      data: { connection_id: connectionId, protocol: "oidc", reason: "sso_user_deactivated" },
    });
  });
});

describe("SSO sign-in: the request", () => {
  it("the IdP's callback works once: a replayed state is SSO_REQUEST_INVALID and mints no second code", async () => {
    const p = await ssoProject();
    const connectionId = await insertOidcConnection(p);
    const flow = await ssoFlow(p.client, "replay@nowhere.example", { connectionId });
    expect(flow.callback.status).toBe(303);
    const replay = await fetchWorker(flow.idpCallback);
    expect(replay.status).toBe(400);
    expect((await replay.json()) as { code: string }).toMatchObject({ code: "SSO_REQUEST_INVALID" });
  });

  it("a state of another sign-in fails at the IdP's token endpoint (our PKCE verifier is the other request's)", async () => {
    const p = await ssoProject();
    const connectionId = await insertOidcConnection(p);
    const first = await startSso(p.client, { connectionId });
    const second = await startSso(p.client, { connectionId });
    const idpCallback = new URL(await loginAtProvider(first.toString(), "swap@nowhere.example"));
    idpCallback.searchParams.set("state", second.searchParams.get("state")!);
    const res = await fetchWorker(idpCallback.toString());
    expect(res.status).toBe(307);
    expect(redirectedError(new URL(res.headers.get("location")!)).code).toBe("SSO_IDP_ERROR");
  });

  it("a state of another connection is refused", async () => {
    const p = await ssoProject();
    const a = await insertOidcConnection(p);
    const b = await insertOidcConnection(p);
    const idpUrl = await startSso(p.client, { connectionId: a });
    const res = await fetchWorker(`http://localhost/api/v1/auth/sso/oidc/${b}/callback?code=x&state=${idpUrl.searchParams.get("state")}`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe("SSO_REQUEST_INVALID");
  });

  it("the IdP's error answer goes to the app's error URL", async () => {
    const p = await ssoProject();
    const connectionId = await insertOidcConnection(p);
    const idpUrl = await startSso(p.client, { connectionId });
    const res = await fetchWorker(
      `http://localhost/api/v1/auth/sso/oidc/${connectionId}/callback?error=access_denied&state=${idpUrl.searchParams.get("state")}`,
    );
    expect(res.status).toBe(307);
    expect(redirectedError(new URL(res.headers.get("location")!)).code).toBe("SSO_IDP_ERROR");
  });

  it("the IdP URL: PKCE S256, a nonce, state = a one-time 45-character code, our callback as redirect_uri, the scopes", async () => {
    const p = await ssoProject();
    const connectionId = await insertOidcConnection(p, { scopes: ["groups"] });
    const url = await startSso(p.client, { connectionId });
    expect(url.origin).toBe(new URL(env.OAUTH_MOCK_ISSUER!).origin);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get("nonce")!.length).toBeGreaterThanOrEqual(32);
    expect(url.searchParams.get("state")).toMatch(/^[0-9a-z]{45}$/i);
    expect(url.searchParams.get("redirect_uri")).toBe(`http://localhost/api/v1/auth/sso/oidc/${connectionId}/callback`);
    expect(url.searchParams.get("scope")).toBe("openid email profile groups");
    expect(url.searchParams.get("client_id")).toBe("DOORMAN-SSO");
  });

  it("authorize refuses what it cannot route, and checks the outer request like the OAuth start", async () => {
    const p = await ssoProject();
    const connectionId = await insertOidcConnection(p);
    const disabled = await insertOidcConnection(p, { enabled: false });
    const codeOf = async (url: string) => ((await (await fetchWorker(url)).json()) as { code: string }).code;
    expect(await codeOf(ssoAuthorizeUrl(p.client, { email: `x@${uniqueDomain()}` }))).toBe("SSO_NOT_CONFIGURED_FOR_EMAIL");
    expect(await codeOf(ssoAuthorizeUrl(p.client, { connectionId: disabled }))).toBe("SSO_CONNECTION_NOT_FOUND");
    expect(await codeOf(ssoAuthorizeUrl(p.client, { connectionId: crypto.randomUUID() }))).toBe("SSO_CONNECTION_NOT_FOUND");
    expect(await codeOf(ssoAuthorizeUrl(p.client, { connectionId, email: "a@b.example" }))).toBe("SCHEMA_ERROR");
    expect(await codeOf(ssoAuthorizeUrl(p.client, {}))).toBe("SCHEMA_ERROR");
    expect(await codeOf(ssoAuthorizeUrl(p.client, { connectionId, redirectUri: "https://evil.example/cb" }))).toBe(
      "REDIRECT_URL_NOT_WHITELISTED",
    );
    expect(await codeOf(ssoAuthorizeUrl(p.client, { connectionId, errorRedirectUrl: "https://evil.example/err" }))).toBe(
      "REDIRECT_URL_NOT_WHITELISTED",
    );
    expect(await codeOf(ssoAuthorizeUrl(p.client, { connectionId, extra: { scope: "openid" } }))).toBe("INVALID_SCOPE");
    expect(await codeOf(ssoAuthorizeUrl({ projectId: p.projectId, publishableClientKey: "pck_wrong" }, { connectionId }))).toBe(
      "INVALID_PUBLISHABLE_CLIENT_KEY",
    );
    // Another project's connection is not found from this project.
    const q = await ssoProject();
    expect(await codeOf(ssoAuthorizeUrl(q.client, { connectionId }))).toBe("SSO_CONNECTION_NOT_FOUND");
    // JSON mode answers the location instead of redirecting.
    const json = await fetchWorker(ssoAuthorizeUrl(p.client, { connectionId, responseMode: "json" }));
    expect(json.status).toBe(200);
    expect(((await json.json()) as { location: string }).location).toContain("/auth?");
  });

  // The SAML start is wired (services/sso/saml/start.ts; its sign-ins: sso-saml-signin.test.ts): a stored config that does not parse is the IdP's error.
  it("a SAML connection whose stored config does not parse answers SSO_IDP_ERROR", async () => {
    const p = await ssoProject();
    const id = crypto.randomUUID();
    await env.DB.prepare(
      "INSERT INTO sso_connections (id, project_id, team_id, protocol, display_name, enabled, config, allow_idp_initiated, scim_group_mapping, created_at, updated_at) VALUES (?, ?, ?, 'saml', 'S', 1, '{}', 0, '{}', ?, ?)",
    )
      .bind(id, p.projectId, p.teamId, Date.now(), Date.now())
      .run();
    const res = await fetchWorker(ssoAuthorizeUrl(p.client, { connectionId: id }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe("SSO_IDP_ERROR");
  });
});

describe("SSO lookup", () => {
  it("names the connection of a verified domain (the domain's own, else the team's first enabled), never a pending one", async () => {
    const p = await ssoProject();
    const first = await insertOidcConnection(p, { displayName: "First" });
    const chosen = await insertOidcConnection(p, { displayName: "Chosen" });
    const plain = uniqueDomain("plain");
    const picked = uniqueDomain("picked");
    const pending = uniqueDomain("pending");
    await insertDomain(p, plain, { enforceSso: true });
    await insertDomain(p, picked, { connectionId: chosen });
    await insertDomain(p, pending, { status: "pending" });
    const lookup = async (email: string) => {
      const res = await call(`/auth/sso/lookup?email=${encodeURIComponent(email)}`, p.client);
      expect(res.status, res.text).toBe(200);
      return res.body;
    };
    expect(await lookup(`a@${plain}`)).toEqual({ connection_id: first, display_name: "First", enforced: true });
    expect(await lookup(`A@${picked.toUpperCase()}`)).toEqual({ connection_id: chosen, display_name: "Chosen", enforced: false });
    expect(await lookup(`a@${pending}`)).toEqual({ connection_id: null, display_name: null, enforced: false });
    expect(await lookup("a@elsewhere.example")).toEqual({ connection_id: null, display_name: null, enforced: false });
    expect((await call("/auth/sso/lookup?email=not-an-email", p.client)).status).toBe(400);
    expect((await call(`/auth/sso/lookup?email=a@${plain}`, {})).status).toBe(400);
  });
});

describe("SSO with the SDK", () => {
  function memoryJar(): CookieJar & { all: Map<string, string> } {
    const all = new Map<string, string>();
    return { all, get: (n) => all.get(n) ?? null, set: (n, v) => void all.set(n, v), remove: (n) => void all.delete(n) };
  }

  it("signInWithSso({ email }) goes to the IdP; the existing OAuth callback handler exchanges the outer code; lookupSso", async () => {
    const p = await ssoProject();
    const connectionId = await insertOidcConnection(p, { displayName: "Acme Okta" });
    const domain = uniqueDomain();
    await insertDomain(p, domain, { enforceSso: true });
    const visited: string[] = [];
    const jar = memoryJar();
    const app = new StackClientApp({
      baseUrl: "http://localhost",
      fetch: (input, init) => workerFetch(input, init),
      redirectMethod: { navigate: (url) => void visited.push(url) },
      trustedOrigins: [APP],
      projectId: p.projectId,
      publishableClientKey: p.client.publishableClientKey,
      tokenStore: "memory",
      cookieJar: jar,
      urls: { oauthCallback: `${APP}/handler/oauth-callback`, error: `${APP}/handler/error`, afterSignUp: `${APP}/welcome` },
    });
    const email = `sdk@${domain}`;
    expect(await app.lookupSso(email)).toEqual({ connectionId, displayName: "Acme Okta", enforced: true });
    await app.signInWithSso({ email });
    const idpUrl = new URL(visited[0]!);
    expect(idpUrl.origin).toBe(new URL(env.OAUTH_MOCK_ISSUER!).origin);
    const callback = await fetchWorker(await loginAtProvider(idpUrl.toString(), email));
    expect(callback.status).toBe(303);
    expect(await app.callOAuthCallback({ href: callback.headers.get("location")! })).toBe(true);
    expect(visited.at(-1)).toBe(`${APP}/welcome`);
    const user = await app.getUser({ or: "throw" });
    expect(user?.primaryEmail).toBe(email);
    expect(user?.primaryEmailVerified).toBe(true);

    // By connection id too (the IdP-initiated bounce's start).
    await app.signOut();
    await app.signInWithSso({ connectionId });
    expect(new URL(visited.at(-1)!).searchParams.get("client_id")).toBe("DOORMAN-SSO");
    // An email nobody set SSO up for is a known error.
    await expect(app.signInWithSso({ email: "nobody@elsewhere.example" })).rejects.toMatchObject({ code: "SSO_NOT_CONFIGURED_FOR_EMAIL" });
  });
});
