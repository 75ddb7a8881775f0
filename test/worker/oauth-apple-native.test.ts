/**
 * Native Sign in with Apple (POST /auth/oauth/callback/apple/native): an app's identity token signs
 * in only when Apple signed it (its key set, faked at the catalogue's URL), for one of the provider's
 * bundle ids, unexpired; the user is then resolved as in the web flow (same identity, merge by
 * verified email, new user, sign-up disabled, anonymous upgrade). A dead key set is a 503, not a 500.
 */
import { describe, expect, it, vi } from "vitest";
import { APPLE } from "../../worker/services/oauth/catalogue";
import { type CallOptions, type CallResult, call, createProjectWithKeys, signUp, uniqueEmail } from "../helpers/api";
import { appleIdToken, type Claims, fakeApple, impostorKeys } from "../helpers/apple";
import { withHealthPolls } from "../helpers/health";

const WEB_CLIENT_ID = "com.example.web.service";
const IOS_BUNDLE = "com.example.ios";
const MAC_BUNDLE = "com.example.macos";
const PATH = "/auth/oauth/callback/apple/native";

const fake = fakeApple();
const token = (claims: Claims, o: { key?: CryptoKey } = {}) => appleIdToken(IOS_BUNDLE, claims, o);
const sub = () => `001234.${crypto.randomUUID()}`;

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;
const apple = (extra: Record<string, unknown> = {}) => ({
  id: "apple",
  type: "standard",
  client_id: WEB_CLIENT_ID,
  client_secret: "apple-client-secret-jwt",
  ...extra,
});
const appleProject = (config: Record<string, unknown> = {}) =>
  createProjectWithKeys({ oauth_providers: [apple({ apple_bundle_ids: [IOS_BUNDLE, MAC_BUNDLE] })], ...config });
const native = (p: Project, body: unknown, o: CallOptions = {}) => call(PATH, { ...p.client, ...o, method: "POST", body });
const users = async (p: Project) => (await call("/users", p.server)).body.items as { id: string }[];

const expectError = (res: CallResult, status: number, code: string) => {
  expect(res.status, res.text).toBe(status);
  expect(res.body.code).toBe(code);
  expect(res.headers.get("x-stack-known-error")).toBe(code);
};

describe("native Sign in with Apple: signing in", () => {
  it("a new identity creates a user; the same identity signs in again as it (the key set is fetched once)", async () => {
    const p = await appleProject();
    const email = uniqueEmail("apple-native");
    const id = sub();
    const first = await native(p, { id_token: await token({ sub: id, email }) });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      user_id: expect.any(String),
      is_new_user: true,
    });
    // Another bundle id of the same project is accepted too.
    const again = await native(p, { id_token: await token({ sub: id, email, aud: MAC_BUNDLE }) });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ user_id: first.body.user_id, is_new_user: false });
    expect(fake.keySetFetches).toBe(1);

    const me = await call("/users/me", { ...p.client, accessToken: again.body.access_token });
    expect(me.body).toMatchObject({ id: first.body.user_id, primary_email: email, primary_email_verified: true });
    const refreshed = await call("/auth/sessions/current/refresh", { ...p.client, method: "POST", refreshToken: first.body.refresh_token });
    expect(refreshed.status, refreshed.text).toBe(200);
    const accounts = await call(`/users/${first.body.user_id}`, p.server);
    expect(accounts.body.oauth_providers).toEqual([expect.objectContaining({ id: "apple", account_id: id })]);
  });

  it("an identity whose verified email belongs to a user with a verified email signs in as that user (link_method)", async () => {
    const p = await appleProject();
    const owner = await signUp(p.client);
    const verified = await call(`/users/${owner.userId}`, { ...p.server, method: "PATCH", body: { primary_email_verified: true } });
    expect(verified.status, verified.text).toBe(200);
    const res = await native(p, { id_token: await token({ sub: sub(), email: owner.email }) });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ user_id: owner.userId, is_new_user: false });
    expect(await users(p)).toHaveLength(1);
  });

  it("an unverified email on either side is not merged (CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE)", async () => {
    const p = await appleProject();
    const owner = await signUp(p.client);
    await call(`/users/${owner.userId}`, { ...p.server, method: "PATCH", body: { primary_email_verified: true } });
    const res = await native(p, { id_token: await token({ sub: sub(), email: owner.email, email_verified: false }) });
    expectError(res, 409, "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE");
    expect(await users(p)).toHaveLength(1);
  });

  it("with sign-up disabled a new identity is refused (SIGN_UP_NOT_ENABLED), a known one still signs in", async () => {
    const p = await appleProject();
    const id = sub();
    const known = await native(p, { id_token: await token({ sub: id }) });
    expect(known.status, known.text).toBe(200);
    const off = await call("/internal/projects/current", { ...p.admin, method: "PATCH", body: { config: { sign_up_enabled: false } } });
    expect(off.status, off.text).toBe(200);
    expectError(await native(p, { id_token: await token({ sub: sub(), email: uniqueEmail() }) }), 400, "SIGN_UP_NOT_ENABLED");
    const again = await native(p, { id_token: await token({ sub: id }) });
    expect(again.status, again.text).toBe(200);
    expect(again.body.user_id).toBe(known.body.user_id);
    expect(await users(p)).toHaveLength(1);
  });

  it("a signed-in anonymous user is upgraded in place, as in the web flow", async () => {
    const p = await appleProject();
    const anon = await call("/auth/anonymous/sign-up", { ...p.client, body: {} });
    expect(anon.status, anon.text).toBe(200);
    const email = uniqueEmail("apple-anon");
    const res = await native(
      p,
      { id_token: await token({ sub: sub(), email }) },
      { accessToken: anon.body.access_token, allowAnonymous: true },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ user_id: anon.body.user_id, is_new_user: true });
    const me = await call(`/users/${anon.body.user_id}`, p.server);
    expect(me.body).toMatchObject({ is_anonymous: false, primary_email: email });
  });

  it("the bundle ids may be set in the reference's override form (appleBundles), or under Doorman's first name", async () => {
    const p = await createProjectWithKeys({ oauth_providers: [apple()] });
    const patch = (override: Record<string, unknown>) =>
      call("/internal/config/override/environment", {
        ...p.admin,
        method: "PATCH",
        body: { config_override_string: JSON.stringify(override) },
      });
    expectError(await native(p, { id_token: await token({ sub: sub() }) }), 400, "APPLE_BUNDLE_ID_NOT_CONFIGURED");
    // As the reference, a dotted key into a bundle entry that does not exist yet is dropped: the entry is set whole.
    expect((await patch({ "auth.oauth.providers.apple.appleBundles.ios.bundleId": IOS_BUNDLE })).status).toBe(200);
    expectError(await native(p, { id_token: await token({ sub: sub() }) }), 400, "APPLE_BUNDLE_ID_NOT_CONFIGURED");
    expect((await patch({ "auth.oauth.providers.apple.appleBundles.ios": { bundleId: IOS_BUNDLE } })).status).toBe(200);
    expect((await native(p, { id_token: await token({ sub: sub() }) })).status).toBe(200);
    expect((await patch({ "auth.oauth.providers.apple.appleBundleIds": { mac: { bundleId: MAC_BUNDLE } } })).status).toBe(200);
    const config = JSON.parse((await call("/internal/config", p.admin)).body.config_string);
    expect(config.auth.oauth.providers.apple.appleBundles).toEqual({ mac: { bundleId: MAC_BUNDLE } });
    expect((await native(p, { id_token: await token({ sub: sub(), aud: MAC_BUNDLE }) })).status).toBe(200);
    const project = await call("/internal/projects/current", p.admin);
    expect(project.body.config.oauth_providers[0].apple_bundle_ids).toEqual([MAC_BUNDLE]);
  });
});

describe("native Sign in with Apple: refusals", () => {
  it("a project without Apple answers OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED", async () => {
    const p = await createProjectWithKeys({ oauth_providers: [{ id: "google", type: "shared" }] });
    expectError(await native(p, { id_token: "fake-token" }), 400, "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED");
  });

  it("Apple without bundle ids answers APPLE_BUNDLE_ID_NOT_CONFIGURED before looking at the token", async () => {
    const p = await createProjectWithKeys({ oauth_providers: [apple()] });
    expectError(await native(p, { id_token: await token({ sub: sub() }) }), 400, "APPLE_BUNDLE_ID_NOT_CONFIGURED");
    expect(fake.keySetFetches).toBe(0);
  });

  it("a missing or oversized id_token is a SCHEMA_ERROR", async () => {
    const p = await appleProject();
    expectError(await native(p, {}), 400, "SCHEMA_ERROR");
    expectError(await native(p, { id_token: "x".repeat(20_000) }), 400, "SCHEMA_ERROR");
  });

  it("a token that is not a JWT is INVALID_APPLE_CREDENTIALS without fetching Apple's keys", async () => {
    const p = await appleProject();
    vi.spyOn(console, "warn").mockImplementation(() => {});
    expectError(await native(p, { id_token: "invalid-jwt-token" }), 400, "INVALID_APPLE_CREDENTIALS");
    expect(fake.keySetFetches).toBe(0);
  });

  it.each([
    ["another app's token (wrong audience)", (s: string) => token({ sub: s, aud: "com.someone-else.app" })],
    ["a token for the web Services ID", (s: string) => token({ sub: s, aud: WEB_CLIENT_ID })],
    [
      "an expired token",
      (s: string) => token({ sub: s, iat: Math.floor(Date.now() / 1000) - 3600, exp: Math.floor(Date.now() / 1000) - 60 }),
    ],
    ["a wrong signature", (s: string) => token({ sub: s }, { key: impostorKeys.privateKey })],
    ["a wrong issuer", (s: string) => token({ sub: s, iss: `${APPLE.issuer}.evil.example` })],
    [
      "an unsigned token",
      async (s: string) => `${btoa(JSON.stringify({ alg: "none" })).replace(/=+$/, "")}.${(await token({ sub: s })).split(".")[1]}.`,
    ],
  ])("%s is INVALID_APPLE_CREDENTIALS; no user is made", async (_, make) => {
    const p = await appleProject();
    vi.spyOn(console, "warn").mockImplementation(() => {});
    expectError(await native(p, { id_token: await make(sub()) }), 400, "INVALID_APPLE_CREDENTIALS");
    expect(await users(p)).toHaveLength(0);
  });

  it.each([
    ["hang", "a key set that never answers"],
    ["huge", "a 50 MB key set"],
  ])(
    "%s (%s) answers 503 OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE while /health keeps answering",
    async (mode) => {
      fake.keySetMode = mode as "hang" | "huge";
      const p = await appleProject();
      vi.spyOn(console, "warn").mockImplementation(() => {});
      const id_token = await token({ sub: sub() });
      const { result, ...health } = await withHealthPolls(() => native(p, { id_token }));
      console.log(`native Apple, key set ${mode}: /health polled ${health.polls}×, max ${health.maxMs} ms`);
      expectError(result, 503, "OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE");
      expect(health.failures).toBe(0);
      expect(await users(p)).toHaveLength(0);
    },
    60_000,
  );
});
