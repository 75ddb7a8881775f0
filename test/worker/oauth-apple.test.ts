/**
 * Sign in with Apple (ASVS 6.8.2, 10.5.4): Apple has no user-info API, so the user is read from the
 * ID token of the code exchange, and only after its signature (Apple's key set), `iss`, `aud` (the
 * project's client id) and `exp` are checked. Apple's token endpoint and key set are faked on the
 * global fetch (the worker runs in this isolate) at the catalogue's URLs, with a local key pair.
 */
import { describe, expect, it, vi } from "vitest";
import { APPLE } from "../../worker/services/oauth/catalogue";
import { call, createProjectWithKeys, uniqueEmail } from "../helpers/api";
import {
  appleIdToken,
  type Claims,
  fakeApple,
  impostorKeys as impostor,
  jwk,
  applePublicJwk as publicJwk,
  rotatedInKeys as rotatedIn,
} from "../helpers/apple";
import { withHealthPolls } from "../helpers/health";
import { authorizeUrl, CookieJar, exchangeCode, fetchWorker, randomVerifier, s256 } from "../helpers/oauth";

const CLIENT_ID = "com.example.doorman";

const idToken = (claims: Claims, o: { key?: CryptoKey; kid?: string } = {}) => appleIdToken(CLIENT_ID, claims, o);
const fake = fakeApple();

const appleProject = () =>
  createProjectWithKeys({
    oauth_providers: [{ id: "apple", type: "standard", client_id: CLIENT_ID, client_secret: "apple-client-secret-jwt" }],
  });

/** authorize → Apple's form_post callback (with the ID token `token`) → the app's redirect. */
async function appleCallback(p: Awaited<ReturnType<typeof appleProject>>, token: string, verifier: string, nowMs?: number) {
  const jar = new CookieJar();
  const start = await fetchWorker(authorizeUrl(p.client, { provider: "apple", method: "S256", challenge: await s256(verifier) }), {
    nowMs,
  });
  expect(start.status, await start.clone().text()).toBe(307);
  jar.store(start);
  const toApple = new URL(start.headers.get("location")!);
  expect(`${toApple.origin}${toApple.pathname}`).toBe(APPLE.authorize);
  fake.nextIdToken = token;
  const callback = await fetchWorker("http://localhost/api/v1/auth/oauth/callback/apple", {
    method: "POST",
    headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ state: toApple.searchParams.get("state")!, code: "apple-authorization-code" }).toString(),
    nowMs,
  });
  // 303 with a code, 307 to the error URL (the reference's statuses).
  expect([303, 307]).toContain(callback.status);
  return new URL(callback.headers.get("location")!);
}

describe("Sign in with Apple: a dead or hostile key set", () => {
  it.each([
    ["hang", "a key set that never answers"],
    ["huge", "a 50 MB key set"],
  ])(
    "%s (%s) ends the sign-in with OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE while /health keeps answering",
    async (mode) => {
      fake.keySetMode = mode as "hang" | "huge";
      const p = await appleProject();
      vi.spyOn(console, "warn").mockImplementation(() => {});
      const token = await idToken({ sub: `dead-keys.${crypto.randomUUID()}` });
      const { result: back, ...health } = await withHealthPolls(() => appleCallback(p, token, randomVerifier()));
      console.log(`Apple key set ${mode}: /health polled ${health.polls}×, max ${health.maxMs} ms`);
      expect(`${back.origin}${back.pathname}`).toBe("http://localhost:3000/handler/error");
      expect(back.searchParams.get("errorCode")).toBe("OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE");
      expect(health.failures).toBe(0);
      expect((await call("/users", { ...p.server })).body.items).toHaveLength(0);
    },
    60_000,
  );
});

describe("Sign in with Apple: the ID token is verified", () => {
  it("a token signed by Apple's key, for this client, unexpired, signs in (the key set is fetched once)", async () => {
    const p = await appleProject();
    const email = uniqueEmail("apple");
    for (const isNew of [true, false]) {
      const verifier = randomVerifier();
      const back = await appleCallback(p, await idToken({ sub: "001234.apple-user", email }), verifier);
      const code = back.searchParams.get("code");
      expect(code, back.toString()).toHaveLength(45);
      const tokens = await exchangeCode(p.client, code!, verifier);
      expect(tokens.status, tokens.text).toBe(200);
      expect(tokens.body.is_new_user).toBe(isNew);
      const me = await call("/users/me", { ...p.client, accessToken: tokens.body.access_token });
      expect(me.body).toMatchObject({ primary_email: email, primary_email_verified: true });
    }
    expect(fake.keySetFetches).toBe(1);
  });

  it.each([
    ["a wrong signature", (sub: string) => idToken({ sub }, { key: impostor.privateKey }), /signature verification failed/],
    ["a wrong audience", (sub: string) => idToken({ sub, aud: "com.someone-else.app" }), /"aud"/],
    ["a wrong issuer", (sub: string) => idToken({ sub, iss: "https://appleid.apple.com.evil.example" }), /"iss"/],
    [
      "an expired token",
      (sub: string) => idToken({ sub, iat: Math.floor(Date.now() / 1000) - 3600, exp: Math.floor(Date.now() / 1000) - 60 }),
      /"exp"/,
    ],
    [
      "an unsigned token",
      async (sub: string) => `${btoa(JSON.stringify({ alg: "none" })).replace(/=+$/, "")}.${(await idToken({ sub })).split(".")[1]}.`,
      /alg/i,
    ],
  ])("%s is refused with OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE at the app's error URL; no user is made", async (_, make, reason) => {
    const p = await appleProject();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const back = await appleCallback(p, await make(`refused.${crypto.randomUUID()}`), randomVerifier());
    expect(`${back.origin}${back.pathname}`).toBe("http://localhost:3000/handler/error");
    expect(back.searchParams.get("errorCode")).toBe("OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE");
    expect(back.searchParams.get("code")).toBeNull();
    expect(String(warn.mock.calls[0]?.[1])).toMatch(reason);
    const users = await call("/users", { ...p.server });
    expect(users.body.items).toHaveLength(0);
  });

  it("a key id the cached set lacks fetches the set again (Apple rotated its keys), at most once per cooldown", async () => {
    const p = await appleProject();
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const t = Date.now();
    const signIn = async (token: string, nowMs: number) => {
      const verifier = randomVerifier();
      const back = await appleCallback(p, token, verifier, nowMs);
      return back.searchParams.get("code")
        ? (await exchangeCode(p.client, back.searchParams.get("code")!, verifier, undefined, nowMs)).status
        : back.searchParams.get("errorCode");
    };
    expect(await signIn(await idToken({ sub: "rotation.1", email: uniqueEmail("apple-rot") }), t)).toBe(200);
    expect(fake.keySetFetches).toBe(1);
    // Apple publishes a new key; a token signed with it names a key id the cached set lacks.
    fake.publishedKeys = [publicJwk, await jwk(rotatedIn.publicKey, "apple-rotated")];
    const rotated = await idToken(
      { sub: "rotation.2", email: uniqueEmail("apple-rot") },
      { key: rotatedIn.privateKey, kid: "apple-rotated" },
    );
    expect(await signIn(rotated, t + 60_000)).toBe(200);
    expect(fake.keySetFetches).toBe(2);
    // A key id nobody published, right after: refused, and the set is not fetched again within the cooldown.
    const unknown = await idToken({ sub: "rotation.3" }, { key: rotatedIn.privateKey, kid: "never-published" });
    expect(await signIn(unknown, t + 61_000)).toBe("OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE");
    expect(fake.keySetFetches).toBe(2);
  });
});
