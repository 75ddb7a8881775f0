/** /connected-accounts: listing a user's connected accounts, and provider access tokens (real provider grants too). */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys, signUp } from "../helpers/api";
import { signInWithProvider } from "../helpers/oauth";

const PROVIDERS = [
  { id: "github", type: "standard", client_id: "gh-client", client_secret: "gh-secret" },
  { id: "spotify", type: "shared" },
];

async function setup() {
  const p = await createProjectWithKeys({ oauth_providers: PROVIDERS });
  const alice = await signUp(p.client);
  const bob = await signUp(p.client);
  const link = (userId: string, body: Record<string, unknown>) =>
    call("/oauth-providers", { ...p.server, body: { user_id: userId, allow_sign_in: false, allow_connected_accounts: true, ...body } });
  return {
    p,
    alice,
    bob,
    link,
    asAlice: { ...p.client, accessToken: alice.accessToken },
    asBob: { ...p.client, accessToken: bob.accessToken },
  };
}

const token = (as: Parameters<typeof call>[1], path: string, body: Record<string, unknown> = {}) =>
  call(`/connected-accounts/${path}/access-token`, { ...as, body });

describe("listing connected accounts", () => {
  it("lists the accounts that allow connected accounts, oldest first; own only for clients", async () => {
    const { p, alice, link, asAlice, asBob } = await setup();
    expect((await call("/connected-accounts/me", asAlice)).body).toEqual({ items: [], is_paginated: false });
    await link(alice.userId, { provider_config_id: "github", account_id: "gh-a" });
    await link(alice.userId, { provider_config_id: "spotify", account_id: "sp-a", allow_connected_accounts: false, allow_sign_in: true });
    await link(alice.userId, { provider_config_id: "github", account_id: "gh-b/with?odd=chars" });

    const expected = {
      items: [
        { user_id: alice.userId, provider: "github", provider_account_id: "gh-a" },
        { user_id: alice.userId, provider: "github", provider_account_id: "gh-b/with?odd=chars" },
      ],
      is_paginated: false,
    };
    expect((await call("/connected-accounts/me", asAlice)).body).toEqual(expected);
    expect((await call(`/connected-accounts/${alice.userId}`, asAlice)).body).toEqual(expected);
    expect((await call(`/connected-accounts/${alice.userId}`, p.server)).body).toEqual(expected);

    const other = await call(`/connected-accounts/${alice.userId}`, asBob);
    expect(other.status).toBe(403);
    expect((await call(`/connected-accounts/${crypto.randomUUID()}`, p.server)).body.code).toBe("USER_NOT_FOUND");
    expect((await call("/connected-accounts/me", p.client)).body.code).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
  });
});

describe("access tokens without a provider grant", () => {
  it("missing connection, unknown provider, another user's connection", async () => {
    const { p, alice, bob, link, asAlice, asBob } = await setup();
    const none = await token(asAlice, "me/github");
    expect(none.status).toBe(400);
    expect(none.body.code).toBe("OAUTH_CONNECTION_NOT_CONNECTED_TO_USER");
    expect((await token(asAlice, "me/gitlab")).body.code).toBe("OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED");

    // A sign-in-only link is not a connected account.
    await link(alice.userId, {
      provider_config_id: "github",
      account_id: "gh-signin",
      allow_sign_in: true,
      allow_connected_accounts: false,
    });
    expect((await token(asAlice, "me/github")).body.code).toBe("OAUTH_CONNECTION_NOT_CONNECTED_TO_USER");

    await link(bob.userId, { provider_config_id: "github", account_id: "gh-bob" });
    expect((await token(asAlice, `me/github/gh-bob`)).body.code).toBe("OAUTH_CONNECTION_NOT_CONNECTED_TO_USER");
    expect((await token(asAlice, `${bob.userId}/github`)).status).toBe(403);
    expect((await token(asBob, "me/github/non-existent")).body.code).toBe("OAUTH_CONNECTION_NOT_CONNECTED_TO_USER");
    expect((await token(p.server, `${crypto.randomUUID()}/github`)).body.code).toBe("USER_NOT_FOUND");
  });

  it("a connection that holds no grant answers missing scope (the SDK then connects again)", async () => {
    const { p, bob, link, asBob } = await setup();
    await link(bob.userId, { provider_config_id: "github", account_id: "gh-bob" });
    for (const [as, path] of [
      [asBob, "me/github"],
      [asBob, "me/github/gh-bob"],
      [p.server, `${bob.userId}/github`],
    ] as const) {
      const res = await token(as, path, { scope: "repo" });
      expect(res.status, path).toBe(400);
      expect(res.body.code, path).toBe("OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE");
      expect((await token(as, path)).body.code, path).toBe("OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE");
    }
  });

  it("with shared keys too: a connection linked without a grant asks to connect, not for other keys", async () => {
    const { alice, link, asAlice } = await setup();
    await link(alice.userId, { provider_config_id: "spotify", account_id: "sp-alice" });
    for (const scope of [undefined, "openid", "playlist-modify-private"]) {
      const res = await token(asAlice, "me/spotify/sp-alice", scope ? { scope } : {});
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE");
    }
  });

  it("names users by uuid or me: anything else is SCHEMA_ERROR", async () => {
    const { p, asAlice } = await setup();
    expect((await call("/connected-accounts/not-a-user-id", p.server)).body.code).toBe("SCHEMA_ERROR");
    expect((await token(p.server, "not-a-user-id/github")).body.code).toBe("SCHEMA_ERROR");
    expect((await token(asAlice, "not-a-user-id/github/gh-a")).body.code).toBe("SCHEMA_ERROR");
  });

  it("rejects malformed bodies", async () => {
    const { asAlice } = await setup();
    expect((await token(asAlice, "me/github", { scope: 5 })).body.code).toBe("SCHEMA_ERROR");
    expect((await token(asAlice, "me/github", { scope: "a", extra: true })).body.code).toBe("SCHEMA_ERROR");
  });
});

/** What the provider says about a token: its userinfo answer (200 = a live token). */
async function userinfo(accessToken: string) {
  const res = await fetch(`${env.OAUTH_MOCK_ISSUER}/me`, { headers: { authorization: `Bearer ${accessToken}` } });
  return { status: res.status, body: res.status === 200 ? ((await res.json()) as { sub: string }) : null };
}

describe("access tokens of a real provider grant (bundled OpenID provider, shared keys)", () => {
  async function signedInWithProvider() {
    const p = await createProjectWithKeys({ oauth_providers: PROVIDERS });
    const email = `oauth-${crypto.randomUUID()}@example.com`;
    const tokens = await signInWithProvider(p.client, email, { provider: "spotify" });
    const as = { ...p.client, accessToken: tokens.access_token };
    const [account] = (await call("/connected-accounts/me", as)).body.items;
    return { p, as, account: account as { user_id: string; provider: string; provider_account_id: string } };
  }

  it("hands out the stored token while fresh, then refreshes it for real and stores the new one", async () => {
    const { p, as, account } = await signedInWithProvider();
    expect(account.provider).toBe("spotify");

    const first = await token(as, "me/spotify", { scope: "openid" });
    expect(first.status).toBe(201);
    expect((await userinfo(first.body.access_token)).body?.sub).toBe(account.provider_account_id);
    // Fresh: the same stored token, also by account and for the server.
    expect((await token(as, "me/spotify")).body.access_token).toBe(first.body.access_token);
    const byAccount = await token(as, `me/spotify/${encodeURIComponent(account.provider_account_id)}`, { scope: "openid email" });
    expect(byAccount.body.access_token).toBe(first.body.access_token);
    expect((await token(p.server, `${account.user_id}/spotify`)).body.access_token).toBe(first.body.access_token);

    // An hour later the token (1 h at this provider) is stale: the server refreshes it at the provider.
    // (The back end asks: the user's own Doorman access token would have expired by then too.)
    const later = { ...p.server, nowMs: Date.now() + 3600_000 };
    const refreshed = await token(later, `${account.user_id}/spotify`, { scope: "openid" });
    expect(refreshed.status, refreshed.text).toBe(201);
    expect(refreshed.body.access_token).not.toBe(first.body.access_token);
    expect((await userinfo(refreshed.body.access_token)).body?.sub).toBe(account.provider_account_id);
    // Stored: the next call at that time gets the same new token, no second refresh.
    expect((await token(later, `${account.user_id}/spotify`)).body.access_token).toBe(refreshed.body.access_token);
  });

  it("concurrent requests for a stale token refresh once: every caller gets a live token", async () => {
    const { p, account } = await signedInWithProvider();
    const later = { ...p.server, nowMs: Date.now() + 3600_000 };
    // This provider rotates refresh tokens and revokes the whole grant when a used one comes back:
    // refreshing twice with one token would kill the connection.
    const answers = await Promise.all([1, 2, 3, 4].map(() => token(later, `${account.user_id}/spotify`)));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    for (const a of answers) expect((await userinfo(a.body.access_token)).status).toBe(200);
    expect(new Set(answers.map((a) => a.body.access_token)).size).toBe(1);
    // And the grant is alive for the next refresh, another hour on.
    const again = await token({ ...p.server, nowMs: Date.now() + 7200_000 }, `${account.user_id}/spotify`);
    expect(again.status, again.text).toBe(201);
    expect((await userinfo(again.body.access_token)).status).toBe(200);
  });

  /** The dev provider's test hooks: revoke a token or the grant, or fail the grant's next refresh. */
  const providerHook = (path: string, body: Record<string, string>) =>
    fetch(`${env.OAUTH_MOCK_ISSUER}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("a token revoked at the provider is not handed out: the grant is refreshed instead", async () => {
    const { as, account } = await signedInWithProvider();
    const first = await token(as, "me/spotify", { scope: "openid" });
    expect((await providerHook("/revoke-access-token", { token: first.body.access_token })).status).toBe(200);
    expect((await userinfo(first.body.access_token)).status).toBe(401);

    const next = await token(as, "me/spotify", { scope: "openid" });
    expect(next.status, next.text).toBe(201);
    expect(next.body.access_token).not.toBe(first.body.access_token);
    expect((await userinfo(next.body.access_token)).body?.sub).toBe(account.provider_account_id);
    // The new token is stored: the next call gets it again (the provider still accepts it).
    expect((await token(as, "me/spotify")).body.access_token).toBe(next.body.access_token);
  });

  it("a grant revoked at the provider, or a refresh it refuses, asks to connect again", async () => {
    const revoked = await signedInWithProvider();
    const first = await token(revoked.as, "me/spotify", { scope: "openid" });
    expect((await providerHook("/revoke-refresh-token", { token: first.body.access_token })).status).toBe(200);
    const gone = await token(revoked.as, "me/spotify", { scope: "openid" });
    expect(gone.status).toBe(400);
    expect(gone.body.code).toBe("OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE");

    const refused = await signedInWithProvider();
    const live = await token(refused.as, "me/spotify", { scope: "openid" });
    await providerHook("/simulate-refresh-error", { token: live.body.access_token, error_type: "consent_required" });
    await providerHook("/revoke-access-token", { token: live.body.access_token });
    const denied = await token(refused.as, `me/spotify/${encodeURIComponent(refused.account.provider_account_id)}`, { scope: "openid" });
    expect(denied.status).toBe(400);
    expect(denied.body.code).toBe("OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE");
  });

  it("a scope the grant lacks: shared keys refuse it; a standard provider would ask to connect again", async () => {
    const { as } = await signedInWithProvider();
    const extra = await token(as, "me/spotify", { scope: "openid user-library-read" });
    expect(extra.body.code).toBe("OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS");
  });

  it("the user view and the links show the provider identity; unlinking ends the connection", async () => {
    const { p, as, account } = await signedInWithProvider();
    expect((await call(`/users/${account.user_id}`, p.server)).body.oauth_providers).toEqual([
      { id: "spotify", account_id: account.provider_account_id, email: expect.stringContaining("@example.com") },
    ]);
    const [linkRow] = (await call("/oauth-providers?user_id=me", as)).body.items;
    expect(linkRow).toMatchObject({ provider_config_id: "spotify", type: "spotify", allow_connected_accounts: true });
    await call(`/oauth-providers/me/${linkRow.id}`, { ...as, method: "PATCH", body: { allow_connected_accounts: false } });
    expect((await token(as, "me/spotify")).body.code).toBe("OAUTH_CONNECTION_NOT_CONNECTED_TO_USER");
    expect((await call("/connected-accounts/me", as)).body.items).toEqual([]);
  });
});
