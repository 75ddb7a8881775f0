/**
 * OAuth sign-in end to end through the bundled OpenID provider: users created, signed in,
 * linked, merged per strategy, anonymous upgrade; the code grant (PKCE S256/plain, redirect
 * binding, single use with replay revocation, MFA); provider tokens sealed at rest.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { decryptAtRest } from "../../worker/crypto/at-rest";
import { forgetAuthRows } from "../../worker/db/auth-row-cache";
import { findProjectById } from "../../worker/db/queries/projects";
import { makeDeps, serverSecret } from "../../worker/services/deps";
import { resolveOAuthUser } from "../../worker/services/oauth/account-resolution";
import { isSharedProvider, refreshProviderAccessToken } from "../../worker/services/oauth/providers";
import { openProviderToken } from "../../worker/services/oauth/tokens";
import { call, createProjectWithKeys, signUp, uniqueEmail } from "../helpers/api";
import {
  APP_CALLBACK,
  authorizeUrl,
  CookieJar,
  exchangeCode,
  fetchWorker,
  loginAtProvider,
  oauthFlow,
  randomVerifier,
  s256,
  signInWithProvider,
} from "../helpers/oauth";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

async function oauthProject(config: Record<string, unknown> = {}): Promise<Project> {
  return createProjectWithKeys({ oauth_providers: [{ id: "github", type: "shared" }], ...config });
}

async function me(p: Project, accessToken: string) {
  const res = await call("/users/me", { ...p.server, accessToken });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function serverUser(p: Project, email: string, verified: boolean) {
  const res = await call("/users", {
    ...p.server,
    body: { primary_email: email, primary_email_verified: verified, primary_email_auth_enabled: true },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

describe("sign-in", () => {
  it("creates a user on first sign-in (verified email) and signs the same user in again", async () => {
    const p = await oauthProject();
    const email = uniqueEmail("new");
    const first = await signInWithProvider(p.client, email);
    expect(first).toMatchObject({
      token_type: "Bearer",
      scope: "legacy",
      is_new_user: true,
      newUser: true,
      after_callback_redirect_url: null,
    });
    expect(first.refresh_token).toHaveLength(45);
    const user = await me(p, first.access_token);
    expect(user.primary_email).toBe(email);
    expect(user.primary_email_verified).toBe(true);
    expect(user.display_name).toBe(email.split("@")[0]);

    const second = await signInWithProvider(p.client, email);
    expect(second.is_new_user).toBe(false);
    expect((await me(p, second.access_token)).id).toBe(user.id);
  });

  it("creates the personal team when the project asks for one", async () => {
    const p = await oauthProject({ create_team_on_sign_up: true });
    const tokens = await signInWithProvider(p.client, uniqueEmail("team"));
    const user = await me(p, tokens.access_token);
    expect(user.selected_team_id).toBeTruthy();
  });

  it("returns the after-callback URL given at authorize", async () => {
    const p = await oauthProject();
    const tokens = await signInWithProvider(p.client, uniqueEmail("after"), {
      extra: { after_callback_redirect_url: "http://localhost:3000/dashboard" },
    });
    expect(tokens.after_callback_redirect_url).toBe("http://localhost:3000/dashboard");
    expect((tokens as unknown as Record<string, unknown>).afterCallbackRedirectUrl).toBe("http://localhost:3000/dashboard");
  });

  it("stores the provider's tokens sealed, never in plaintext", async () => {
    const p = await oauthProject();
    const tokens = await signInWithProvider(p.client, uniqueEmail("sealed"));
    const userId = (await me(p, tokens.access_token)).id;
    const row = await env.DB.prepare("SELECT * FROM oauth_accounts WHERE user_id = ?")
      .bind(userId)
      .first<{ access_token_sealed: string; refresh_token_sealed: string; provider_config_id: string; scopes: string }>();
    expect(row?.provider_config_id).toBe("github");
    expect(row?.access_token_sealed).toMatch(/^v1\./);
    expect(row?.refresh_token_sealed).toMatch(/^v1\./);
    expect(row?.scopes).toContain("openid");
    const providerToken = await decryptAtRest([serverSecret(env)], row!.access_token_sealed);
    expect(providerToken).toBeTruthy();
    expect(JSON.stringify(row)).not.toContain(providerToken!);
    // The sealed value is the real provider token: the provider accepts it.
    const info = await fetch(`${env.OAUTH_MOCK_ISSUER}/me`, { headers: { authorization: `Bearer ${providerToken}` } });
    expect(info.status).toBe(200);
  });

  it("refreshProviderAccessToken renews the provider token with the stored refresh token", async () => {
    const p = await oauthProject();
    const tokens = await signInWithProvider(p.client, uniqueEmail("refresh"));
    const userId = (await me(p, tokens.access_token)).id;
    const row = await env.DB.prepare("SELECT refresh_token_sealed FROM oauth_accounts WHERE user_id = ?")
      .bind(userId)
      .first<{ refresh_token_sealed: string }>();
    const deps = makeDeps(env, { origin: "http://localhost" });
    const project = (await findProjectById(deps.db, p.projectId))!;
    expect(isSharedProvider(project, "github")).toBe(true);
    expect(isSharedProvider(project, "google")).toBe(false);
    const refreshToken = (await openProviderToken(deps, row!.refresh_token_sealed))!;
    const fresh = await refreshProviderAccessToken(deps, project, "github", refreshToken);
    expect(fresh?.accessToken).toBeTruthy();
    expect(fresh?.expiresAt).toBeGreaterThan(Date.now());
    const info = await fetch(`${env.OAUTH_MOCK_ISSUER}/me`, { headers: { authorization: `Bearer ${fresh!.accessToken}` } });
    expect(info.status).toBe(200);
    expect(await refreshProviderAccessToken(deps, project, "github", "not-a-refresh-token")).toBeNull();
    expect(await refreshProviderAccessToken(deps, project, "google", refreshToken)).toBeNull();
  });

  it("upgrades the current anonymous user in place", async () => {
    const p = await oauthProject();
    const anon = await call("/auth/anonymous/sign-up", { ...p.client, method: "POST" });
    expect(anon.status, anon.text).toBe(200);
    const tokens = await signInWithProvider(p.client, uniqueEmail("anon"), { token: anon.body.access_token });
    expect(tokens.is_new_user).toBe(true);
    const user = await me(p, tokens.access_token);
    expect(user.id).toBe(anon.body.user_id);
    expect(user.is_anonymous).toBe(false);
  });
});

describe("link", () => {
  it("links a provider account to the signed-in user, who can then sign in with it", async () => {
    const p = await oauthProject();
    const owner = await signUp(p.client);
    const providerEmail = uniqueEmail("linked");
    const linked = await signInWithProvider(p.client, providerEmail, { type: "link", token: owner.accessToken });
    expect(linked.is_new_user).toBe(false);
    expect((await me(p, linked.access_token)).id).toBe(owner.userId);
    const again = await signInWithProvider(p.client, providerEmail);
    expect((await me(p, again.access_token)).id).toBe(owner.userId);

    const other = await signUp(p.client);
    const taken = await oauthFlow(p.client, providerEmail, { type: "link", token: other.accessToken });
    expect(taken.location.searchParams.get("errorCode")).toBe("OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER");
  });
});

describe("merge by email (oauth_account_merge_strategy)", () => {
  it("link_method: attaches to the user with that verified email", async () => {
    const p = await oauthProject({ oauth_account_merge_strategy: "link_method" });
    const email = uniqueEmail("merge");
    const existing = await serverUser(p, email, true);
    const tokens = await signInWithProvider(p.client, email);
    expect(tokens.is_new_user).toBe(false);
    expect((await me(p, tokens.access_token)).id).toBe(existing);
  });

  it("link_method: refuses when the existing email is unverified", async () => {
    const p = await oauthProject({ oauth_account_merge_strategy: "link_method" });
    const email = uniqueEmail("unverified");
    await serverUser(p, email, false);
    const flow = await oauthFlow(p.client, email);
    expect(flow.location.searchParams.get("errorCode")).toBe("CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE");
    expect(JSON.parse(flow.location.searchParams.get("details")!)).toMatchObject({ would_work_if_email_was_verified: true });
  });

  it("raise_error: refuses an email another user signs in with", async () => {
    const p = await oauthProject({ oauth_account_merge_strategy: "raise_error" });
    const email = uniqueEmail("raise");
    await serverUser(p, email, true);
    const flow = await oauthFlow(p.client, email);
    expect(flow.location.searchParams.get("errorCode")).toBe("CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE");
    expect(JSON.parse(flow.location.searchParams.get("details")!)).toMatchObject({ contact_channel_value: email });
  });

  it("allow_duplicates: creates a separate user whose email is not used for sign-in", async () => {
    const p = await oauthProject({ oauth_account_merge_strategy: "allow_duplicates" });
    const email = uniqueEmail("dup");
    const existing = await serverUser(p, email, true);
    const tokens = await signInWithProvider(p.client, email);
    expect(tokens.is_new_user).toBe(true);
    const user = await me(p, tokens.access_token);
    expect(user.id).not.toBe(existing);
    expect(user.primary_email).toBe(email);
    expect(user.primary_email_auth_enabled).toBe(false);
  });
});

describe("POST /auth/oauth/token grant_type=authorization_code", () => {
  it("accepts plain PKCE and sends pragma: no-cache", async () => {
    const p = await oauthProject();
    const flow = await oauthFlow(p.client, uniqueEmail("plain"), { method: "plain", challenge: "some-code-challenge" });
    const res = await exchangeCode(p.client, flow.code, "some-code-challenge");
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("pragma")).toBe("no-cache");
    expect(res.body.expires_in).toBeGreaterThan(0);
  });

  it("a project in production mode refuses plain PKCE at authorize (400); S256 still works", async () => {
    const p = await oauthProject();
    // Set in D1 (the production-mode checks on the project's domains are not what this test is about).
    await env.DB.prepare("UPDATE projects SET is_production_mode = 1 WHERE id = ?").bind(p.projectId).run();
    forgetAuthRows();
    for (const responseMode of ["redirect", "json"] as const) {
      const plain = await fetchWorker(authorizeUrl(p.client, { method: "plain", challenge: "some-code-challenge", responseMode }));
      expect(plain.status).toBe(400);
      expect(plain.headers.get("x-stack-known-error")).toBeNull();
      expect(await plain.text()).toMatch(/code_challenge_method.*plain.*production mode.*S256/);
    }
    const tokens = await signInWithProvider(p.client, uniqueEmail("prod-s256"));
    expect(tokens.access_token).toBeTruthy();
  });

  it("refuses a wrong verifier (the code stays usable) and a different redirect_uri", async () => {
    const p = await oauthProject();
    const verifier = randomVerifier();
    const flow = await oauthFlow(p.client, uniqueEmail("pkce"), { method: "S256", challenge: await s256(verifier) });
    const wrong = await exchangeCode(p.client, flow.code, randomVerifier());
    expect(wrong.body.code).toBe("INVALID_AUTHORIZATION_CODE");
    const mismatch = await exchangeCode(p.client, flow.code, verifier, "http://localhost:3000/elsewhere");
    expect(mismatch.status).toBe(400);
    expect(mismatch.headers.get("x-stack-known-error")).toBeNull();
    expect(mismatch.text).toMatch(/redirect_uri/);
    const ok = await exchangeCode(p.client, flow.code, verifier);
    expect(ok.status, ok.text).toBe(200);
  });

  it("refuses a bad client and an unknown code", async () => {
    const p = await oauthProject();
    const badClient = await exchangeCode({ projectId: p.projectId, publishableClientKey: "wrong" }, "x".repeat(45), "v");
    expect(badClient.body.code).toBe("INVALID_OAUTH_CLIENT_ID_OR_SECRET");
    const unknown = await exchangeCode(p.client, "0".repeat(45), "v");
    expect(unknown.body.code).toBe("INVALID_AUTHORIZATION_CODE");
  });

  it("a replayed code is refused and revokes the session it granted", async () => {
    const p = await oauthProject();
    const verifier = randomVerifier();
    const flow = await oauthFlow(p.client, uniqueEmail("replay"), { method: "S256", challenge: await s256(verifier) });
    const first = await exchangeCode(p.client, flow.code, verifier);
    expect(first.status).toBe(200);
    const refresh = () =>
      call("/auth/oauth/token", {
        body: {
          grant_type: "refresh_token",
          refresh_token: first.body.refresh_token,
          client_id: p.projectId,
          client_secret: p.client.publishableClientKey,
        },
      });
    expect((await refresh()).status).toBe(200);
    const replay = await exchangeCode(p.client, flow.code, verifier);
    expect(replay.body.code).toBe("INVALID_AUTHORIZATION_CODE");
    const afterReplay = await refresh();
    expect(afterReplay.status).toBe(401);
    expect(afterReplay.body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  });

  it("a TOTP user gets MULTI_FACTOR_AUTHENTICATION_REQUIRED instead of tokens", async () => {
    const p = await oauthProject();
    const email = uniqueEmail("mfa");
    const tokens = await signInWithProvider(p.client, email);
    const secret = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(20))));
    const patched = await call("/users/me", {
      ...p.client,
      accessToken: tokens.access_token,
      method: "PATCH",
      body: { totp_secret_base64: secret },
    });
    expect(patched.status, patched.text).toBe(200);

    const verifier = randomVerifier();
    const flow = await oauthFlow(p.client, email, { method: "S256", challenge: await s256(verifier) });
    const res = await exchangeCode(p.client, flow.code, verifier);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("MULTI_FACTOR_AUTHENTICATION_REQUIRED");
    expect(res.body.details.attempt_code).toHaveLength(45);
  });

  it("the redirect URI in the code is compared without its fragment", async () => {
    const p = await oauthProject();
    const verifier = randomVerifier();
    const flow = await oauthFlow(p.client, uniqueEmail("hash"), {
      method: "S256",
      challenge: await s256(verifier),
      redirectUri: `${APP_CALLBACK}#fragment`,
    });
    expect(flow.location.hash).toBe("");
    expect((await exchangeCode(p.client, flow.code, verifier)).status).toBe(200);
  });
});

describe("races", () => {
  it("account resolution racing on one new identity creates one user; the losers sign in as it", async () => {
    const p = await oauthProject();
    const deps = makeDeps(env, { origin: "http://localhost" });
    const project = (await findProjectById(deps.db, p.projectId))!;
    const email = uniqueEmail("resolve-race");
    const input = {
      providerConfigId: "github",
      providerUser: { accountId: `acct-${email}`, email, emailVerified: true, displayName: null, profileImageUrl: null },
      tokens: { accessTokenSealed: null, refreshTokenSealed: null, accessTokenExpiresAt: null, scopes: "" },
      type: "authenticate" as const,
      currentUserId: null,
    };
    // In one isolate the awaits interleave, so every call passes the "does it exist?" reads
    // before any batch lands: the database's unique indexes decide.
    const results = await Promise.all([1, 2, 3, 4].map(() => resolveOAuthUser(deps, project, input)));
    expect(results.every((r) => r.ok)).toBe(true);
    const ids = new Set(results.map((r) => (r.ok ? r.userId : "")));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => r.ok && r.isNewUser)).toHaveLength(1);
    const list = await call(`/users?query=${encodeURIComponent(email)}`, p.server);
    expect(list.body.items).toHaveLength(1);
  });

  it("callbacks signing the same new identity up at once end with one user, all signed in", async () => {
    const p = await oauthProject();
    const email = uniqueEmail("race");
    // Authorize and log in at the provider first, then fire every callback at once, so the
    // account resolution (not the provider round trips) is what runs concurrently.
    const pending = await Promise.all(
      [1, 2, 3, 4].map(async () => {
        const verifier = randomVerifier();
        const jar = new CookieJar();
        const start = await fetchWorker(authorizeUrl(p.client, { method: "S256", challenge: await s256(verifier) }));
        expect(start.status).toBe(307);
        jar.store(start);
        return { verifier, jar, providerCallback: await loginAtProvider(start.headers.get("location")!, email) };
      }),
    );
    const callbacks = await Promise.all(pending.map((f) => fetchWorker(f.providerCallback, { headers: { cookie: f.jar.header() } })));
    const results = await Promise.all(
      callbacks.map(async (res, i) => {
        expect(res.status).toBe(303);
        const code = new URL(res.headers.get("location")!).searchParams.get("code");
        expect(code, res.headers.get("location") ?? "").toHaveLength(45);
        const token = await exchangeCode(p.client, code!, pending[i]!.verifier);
        expect(token.status, token.text).toBe(200);
        return token.body as { access_token: string; is_new_user: boolean };
      }),
    );
    const users = await Promise.all(results.map((r) => me(p, r.access_token)));
    expect(new Set(users.map((u) => u.id)).size).toBe(1);
    expect(results.filter((r) => r.is_new_user)).toHaveLength(1);
    const list = await call(`/users?query=${encodeURIComponent(email)}`, p.server);
    expect(list.status, list.text).toBe(200);
    // A losing batch was rejected whole: no second user with this email was left behind.
    expect(list.body.items.filter((u: { primary_email: string }) => u.primary_email === email)).toHaveLength(1);
  });
});
