/** SDK: linked OAuth providers and connected accounts, against the real worker. */

import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { StackClientApp, StackServerApp } from "../../sdk/src";
import { createProjectWithKeys, uniqueEmail } from "../helpers/api";
import { signInWithProvider } from "../helpers/oauth";
import { workerFetch } from "../helpers/worker-fetch";

const fetchImpl = (input: string, init: RequestInit) => workerFetch(input, init);
const base = { baseUrl: "http://localhost", fetch: fetchImpl, redirectMethod: "none" as const, tokenStore: "memory" as const };

const PROVIDERS = [
  { id: "github", type: "standard", client_id: "gh-client", client_secret: "gh-secret" },
  { id: "spotify", type: "shared" },
];

async function apps() {
  const p = await createProjectWithKeys({ oauth_providers: PROVIDERS });
  const server = new StackServerApp({ ...base, projectId: p.projectId, secretServerKey: p.server.secretServerKey });
  const client = new StackClientApp({ ...base, projectId: p.projectId, publishableClientKey: p.client.publishableClientKey });
  const email = uniqueEmail("sdk-oauth");
  const password = "sdk password 1";
  const created = await server.createUser({ primaryEmail: email, password, primaryEmailAuthEnabled: true });
  expect((await client.signInWithCredential({ email, password, noRedirect: true })).status).toBe("ok");
  const user = (await client.getUser({ or: "throw" }))!;
  return { server, client, user, userId: created.id };
}

describe("oauth providers in the SDK", () => {
  it("the server links; the user lists, reads, toggles and removes", async () => {
    const { server, client, user, userId } = await apps();
    expect(await user.listOAuthProviders()).toEqual([]);

    const created = await server.createOAuthProvider({
      userId,
      providerConfigId: "github",
      accountId: "gh-123",
      email: "ada@gh.example",
      allowSignIn: true,
      allowConnectedAccounts: true,
    });
    expect(created.status).toBe("ok");
    if (created.status !== "ok") return;
    expect(created.data).toMatchObject({ type: "github", providerConfigId: "github", accountId: "gh-123", email: "ada@gh.example" });

    const [listed] = await user.listOAuthProviders();
    expect(listed).toMatchObject({ id: created.data.id, type: "github", allowSignIn: true, allowConnectedAccounts: true });
    expect("accountId" in listed!).toBe(false);

    const one = await user.getOAuthProvider(created.data.id);
    expect(await one!.update({ allowSignIn: false })).toEqual({ status: "ok", data: undefined });
    expect((await user.getOAuthProvider(created.data.id))!.allowSignIn).toBe(false);
    // A change through the user refreshes the cached user, whose view lists the link.
    expect((await client.getUser())!.oauthProviders).toEqual([{ id: "github" }]);

    // The server edits what only it may: the email.
    const serverSide = await (await server.getUser(userId))!.getOAuthProvider(created.data.id);
    expect(serverSide!.accountId).toBe("gh-123");
    await serverSide!.update({ email: "new@gh.example" });
    expect((await user.getOAuthProvider(created.data.id))!.email).toBe("new@gh.example");

    await one!.delete();
    expect((await client.getUser())!.oauthProviders).toEqual([]);
    expect(await user.getOAuthProvider(created.data.id)).toBeNull();
    expect(await user.getOAuthProvider("no-such-link")).toBeNull();
    expect(await user.listOAuthProviders()).toEqual([]);
  });

  it("a taken sign-in identity is an error value, on create and on update", async () => {
    const { server, userId } = await apps();
    const other = await server.createUser({ primaryEmail: uniqueEmail("other") });
    const link = { providerConfigId: "github", accountId: "gh-taken", allowConnectedAccounts: true };
    expect((await server.createOAuthProvider({ ...link, userId, allowSignIn: true })).status).toBe("ok");
    const taken = await server.createOAuthProvider({ ...link, userId: other.id, allowSignIn: true });
    expect(taken.status === "error" && taken.error.code).toBe("OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN");

    const connectedOnly = await server.createOAuthProvider({ ...link, userId: other.id, allowSignIn: false });
    if (connectedOnly.status !== "ok") throw new Error("expected a connected-only link");
    const enable = await connectedOnly.data.update({ allowSignIn: true });
    expect(enable.status === "error" && enable.error.code).toBe("OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN");
  });
});

describe("connected accounts in the SDK", () => {
  it("lists connected accounts and finds one by provider account", async () => {
    const { server, user, userId } = await apps();
    expect(await user.listConnectedAccounts()).toEqual([]);
    await server.createOAuthProvider({
      userId,
      providerConfigId: "github",
      accountId: "gh-a",
      allowSignIn: false,
      allowConnectedAccounts: true,
    });
    await server.createOAuthProvider({
      userId,
      providerConfigId: "github",
      accountId: "gh-b",
      allowSignIn: false,
      allowConnectedAccounts: true,
    });
    await server.createOAuthProvider({
      userId,
      providerConfigId: "spotify",
      accountId: "sp-x",
      allowSignIn: true,
      allowConnectedAccounts: false,
    });

    const accounts = await user.listConnectedAccounts();
    expect(accounts.map((a) => [a.id, a.provider, a.providerAccountId])).toEqual([
      ["github", "github", "gh-a"],
      ["github", "github", "gh-b"],
    ]);
    expect((await user.getConnectedAccount({ provider: "github", providerAccountId: "gh-b" }))?.providerAccountId).toBe("gh-b");
    expect(await user.getConnectedAccount({ provider: "github", providerAccountId: "gh-c" })).toBeNull();
    expect(await user.getConnectedAccount({ provider: "spotify", providerAccountId: "sp-x" })).toBeNull();
    const serverUser = (await server.getUser(userId))!;
    expect((await serverUser.listConnectedAccounts()).map((a) => a.providerAccountId)).toEqual(["gh-a", "gh-b"]);
  });

  it("a missing connection or scope is null (or a throw / a redirect on request); other errors throw", async () => {
    const { server, user, userId } = await apps();
    // Not connected at all.
    expect(await user.getConnectedAccount("github")).toBeNull();
    expect(await user.getConnectedAccount("github", { or: "return-null" })).toBeNull();
    await expect(user.getConnectedAccount("github", { or: "throw" })).rejects.toThrow("no github connection");
    // Linked without a provider grant: no token with any scope.
    await server.createOAuthProvider({
      userId,
      providerConfigId: "github",
      accountId: "gh-1",
      allowSignIn: false,
      allowConnectedAccounts: true,
    });
    expect(await user.getConnectedAccount("github", { scopes: ["repo"] })).toBeNull();
    // The specific account exists, but asking it for a token names the missing grant.
    const account = await user.getConnectedAccount({ provider: "github", providerAccountId: "gh-1" });
    await expect(account!.getAccessToken({ scopes: ["repo"] })).rejects.toMatchObject({
      code: "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE",
    });
    // Not a "no connection" answer: the error reaches the caller.
    await expect(user.getConnectedAccount("gitlab")).rejects.toMatchObject({ code: "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED" });
    await server.createOAuthProvider({
      userId,
      providerConfigId: "spotify",
      accountId: "sp-1",
      allowSignIn: false,
      allowConnectedAccounts: true,
    });
    // A link without a grant asks to connect (missing scope: null here), with shared keys too, as the wire;
    // OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS is for a real grant that lacks the scope.
    await expect(user.getConnectedAccount("spotify", { scopes: ["playlist-read-private"] })).resolves.toBeNull();
  });

  it('or: "redirect" starts linking the provider with the scopes, and answers null meanwhile', async () => {
    const p = await createProjectWithKeys({ oauth_providers: PROVIDERS });
    const navigations: string[] = [];
    const cookies = new Map<string, string>();
    const client = new StackClientApp({
      ...base,
      projectId: p.projectId,
      publishableClientKey: p.client.publishableClientKey,
      redirectMethod: { navigate: (url) => void navigations.push(url) },
      cookieJar: { get: (n) => cookies.get(n) ?? null, set: (n, v) => void cookies.set(n, v), remove: (n) => void cookies.delete(n) },
      urls: { oauthCallback: "http://localhost:3000/handler/oauth-callback", error: "http://localhost:3000/handler/error" },
    });
    const email = uniqueEmail("sdk-redirect");
    expect((await client.signUpWithCredential({ email, password: "sdk password 1", noRedirect: true })).status).toBe("ok");
    const user = (await client.getUser({ or: "throw" }))!;

    expect(await user.getConnectedAccount("github", { scopes: ["repo", "read:org"], or: "redirect" })).toBeNull();
    expect(navigations).toHaveLength(1);
    const to = new URL(navigations[0]!);
    expect(to.origin).toBe("https://github.com");
    expect(to.searchParams.get("client_id")).toBe("gh-client");
    expect(to.searchParams.get("scope")?.split(" ")).toEqual(expect.arrayContaining(["repo", "read:org"]));
  });

  it("a real provider grant: the connection hands out a live provider token", async () => {
    const p = await createProjectWithKeys({ oauth_providers: PROVIDERS });
    const tokens = await signInWithProvider(p.client, uniqueEmail("sdk-grant"), { provider: "spotify" });
    const client = new StackClientApp({
      ...base,
      projectId: p.projectId,
      publishableClientKey: p.client.publishableClientKey,
      tokenStore: { accessToken: tokens.access_token, refreshToken: tokens.refresh_token },
    });
    const user = (await client.getUser({ or: "throw" }))!;
    const [listed] = await user.listConnectedAccounts();
    const connection = await user.getConnectedAccount("spotify", { scopes: ["openid"] });
    expect(connection).toMatchObject({ id: "spotify", provider: "spotify" });
    const { accessToken } = await connection!.getAccessToken();
    const info = await fetch(`${env.OAUTH_MOCK_ISSUER}/me`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(info.status).toBe(200);
    expect(((await info.json()) as { sub: string }).sub).toBe(listed!.providerAccountId);
    // The same through the specific account.
    const specific = await user.getConnectedAccount({ provider: "spotify", providerAccountId: listed!.providerAccountId! });
    expect((await specific!.getAccessToken()).accessToken).toBe(accessToken);
  });
});
