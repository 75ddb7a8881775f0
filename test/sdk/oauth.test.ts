/** SDK OAuth against the real worker and the bundled OpenID provider: signInWithOAuth, callOAuthCallback, linkOAuthAccount. */

import { env } from "cloudflare:test";
import { DEV_PUBLISHABLE_CLIENT_KEY } from "@doorman/shared/constants";
import { afterEach, describe, expect, it, vi } from "vitest";
import { StackClientApp } from "../../sdk/src";
import type { CookieJar } from "../../sdk/src/session/token-store";
import { uniqueEmail } from "../helpers/api";
import { fetchWorker, loginAtProvider } from "../helpers/oauth";
import { workerFetch } from "../helpers/worker-fetch";

const APP = "http://localhost:3000";

function memoryJar(): CookieJar & { all: Map<string, string> } {
  const all = new Map<string, string>();
  return { all, get: (n) => all.get(n) ?? null, set: (n, v) => void all.set(n, v), remove: (n) => void all.delete(n) };
}

function app(jar = memoryJar()) {
  const visited: string[] = [];
  const client = new StackClientApp({
    baseUrl: "http://localhost",
    fetch: (input, init) => workerFetch(input, init),
    redirectMethod: { navigate: (url) => void visited.push(url) },
    trustedOrigins: [APP],
    projectId: "internal",
    publishableClientKey: DEV_PUBLISHABLE_CLIENT_KEY,
    tokenStore: "memory",
    cookieJar: jar,
    urls: {
      oauthCallback: `${APP}/handler/oauth-callback`,
      error: `${APP}/handler/error`,
      afterSignUp: `${APP}/welcome`,
      mfa: `${APP}/handler/mfa`,
    },
  });
  return { client, jar, visited };
}

/** The provider step and our callback: returns the app's oauth-callback URL (with code and state). */
async function throughProvider(providerUrl: string, email: string): Promise<string> {
  const res = await fetchWorker(await loginAtProvider(providerUrl, email));
  expect(res.status).toBe(303);
  return res.headers.get("location")!;
}

afterEach(() => vi.restoreAllMocks());

describe("SDK OAuth", () => {
  it("signInWithOAuth stores the verifier by state and goes to the provider; the callback signs in and redirects", async () => {
    const { client, jar, visited } = app();
    await client.signInWithOAuth("github");
    const providerUrl = new URL(visited[0]!);
    expect(providerUrl.origin).toBe(new URL(env.OAUTH_MOCK_ISSUER!).origin);
    const [cookieName] = [...jar.all.keys()];
    expect(cookieName).toMatch(/^stack-oauth-outer-/);
    expect(jar.all.get(cookieName!)!.length).toBeGreaterThanOrEqual(43);

    const email = uniqueEmail("sdk-oauth");
    const callbackUrl = await throughProvider(providerUrl.toString(), email);
    expect(`stack-oauth-outer-${new URL(callbackUrl).searchParams.get("state")}`).toBe(cookieName);
    expect(await client.callOAuthCallback({ href: callbackUrl })).toBe(true);
    expect(jar.all.size).toBe(0);
    expect(visited.at(-1)).toBe(`${APP}/welcome`);
    const user = await client.getUser({ or: "throw" });
    expect(user?.primaryEmail).toBe(email);
  });

  it("callOAuthCallback does nothing (with a warning) without code, state or the stored state", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const { client } = app();
    await client.signInWithOAuth("github");
    const { client: stranger } = app();
    expect(await stranger.callOAuthCallback({ href: `${APP}/handler/oauth-callback` })).toBe(false);
    expect(await stranger.callOAuthCallback({ href: `${APP}/handler/oauth-callback?code=abc` })).toBe(false);
    expect(await stranger.callOAuthCallback({ href: `${APP}/handler/oauth-callback?code=abc&state=unknown` })).toBe(false);
    expect(warn).toHaveBeenCalledTimes(3);
    expect(await stranger.getUser()).toBeNull();
  });

  it("a failed exchange throws the generic callback error", async () => {
    const { client, visited, jar } = app();
    await client.signInWithOAuth("github");
    const callbackUrl = new URL(await throughProvider(visited[0]!, uniqueEmail("sdk-bad")));
    callbackUrl.searchParams.set("code", "0".repeat(45));
    await expect(client.callOAuthCallback({ href: callbackUrl.toString() })).rejects.toThrow(
      "Error signing in during OAuth callback. Please try again.",
    );
    expect(jar.all.size).toBe(0);
  });

  it("linkOAuthAccount links the provider account to the signed-in user", async () => {
    const { client, visited } = app();
    const signed = await client.signUpWithCredential({ email: uniqueEmail("sdk-link"), password: "correct horse 1", noRedirect: true });
    expect(signed.status).toBe("ok");
    const user = (await client.getUser({ or: "throw" }))!;
    await user.linkOAuthAccount("github");
    const providerUrl = visited.at(-1)!;
    expect(await client.callOAuthCallback({ href: await throughProvider(providerUrl, uniqueEmail("sdk-linked")), noRedirect: true })).toBe(
      true,
    );
    expect((await client.getUser({ or: "throw" }))?.id).toBe(user.id);
    const row = await env.DB.prepare("SELECT provider_config_id FROM oauth_accounts WHERE user_id = ?").bind(user.id).first();
    expect(row).toEqual({ provider_config_id: "github" });
  });

  it("a TOTP user is sent to the mfa page with the attempt kept", async () => {
    const email = uniqueEmail("sdk-mfa");
    const first = app();
    await first.client.signInWithOAuth("github");
    await first.client.callOAuthCallback({ href: await throughProvider(first.visited[0]!, email), noRedirect: true });
    const user = (await first.client.getUser({ or: "throw" }))!;
    await user.update({ totpMultiFactorSecret: crypto.getRandomValues(new Uint8Array(20)) });

    const second = app();
    await second.client.signInWithOAuth("github");
    expect(await second.client.callOAuthCallback({ href: await throughProvider(second.visited[0]!, email) })).toBe(false);
    expect(second.visited.at(-1)).toBe(`${APP}/handler/mfa`);
    expect(await second.client.getUser()).toBeNull();
  });
});
