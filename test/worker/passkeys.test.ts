/** Passkeys: options, real registration and sign-in ceremonies, origin/RP-ID checks, challenges. */
import { env } from "cloudflare:test";
import { base64url } from "jose";
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys, type SignedUp, signUp } from "../helpers/api";
import { SoftAuthenticator } from "../helpers/webauthn";

const SENTINEL = "THIS_VALUE_WILL_BE_REPLACED.example.com";
const ORIGIN = "http://localhost:3000";
const APP_ORIGIN = "https://app.example.com";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

const passkeyProject = () => createProjectWithKeys({ passkey_enabled: true, domains: [{ domain: APP_ORIGIN, handler_path: "/handler" }] });

async function initiateRegistration(p: Project, user: SignedUp) {
  const res = await call("/auth/passkey/initiate-passkey-registration", { ...p.client, accessToken: user.accessToken, body: {} });
  expect(res.status).toBe(200);
  return res.body as { options_json: any; code: string };
}

async function register(p: Project, user: SignedUp, authenticator: SoftAuthenticator, origin = ORIGIN, rpId?: string) {
  const { options_json, code } = await initiateRegistration(p, user);
  const credential = await authenticator.register(options_json, { origin, rpId });
  return call("/auth/passkey/register", { ...p.client, accessToken: user.accessToken, body: { credential, code } });
}

async function initiateAuthentication(p: Project) {
  const res = await call("/auth/passkey/initiate-passkey-authentication", { ...p.client, body: {} });
  expect(res.status).toBe(200);
  return res.body as { options_json: any; code: string };
}

async function signIn(
  p: Project,
  authenticator: SoftAuthenticator,
  target: Parameters<SoftAuthenticator["authenticate"]>[1] = { origin: ORIGIN },
) {
  const { options_json, code } = await initiateAuthentication(p);
  const authentication_response = await authenticator.authenticate(options_json, target);
  return call("/auth/passkey/sign-in", { ...p.client, body: { authentication_response, code } });
}

/** A user of a fresh passkey project with a registered passkey. */
async function userWithPasskey(p: Project) {
  const user = await signUp(p.client);
  const authenticator = await SoftAuthenticator.create();
  const res = await register(p, user, authenticator);
  expect(res.status).toBe(200);
  return { user, authenticator };
}

describe("passkey options", () => {
  it("registration options carry the sentinel RP ID and the wire's settings", async () => {
    const p = await passkeyProject();
    const user = await signUp(p.client);
    const { options_json: o, code } = await initiateRegistration(p, user);
    expect(code).toMatch(/^[0-9a-z]{45}$/);
    expect(o.rp.id).toBe(SENTINEL);
    expect(o.rp.name).toBe("Test project");
    expect(o.authenticatorSelection).toMatchObject({ residentKey: "required", requireResidentKey: true, userVerification: "preferred" });
    expect(o).toMatchObject({ timeout: 60000, attestation: "none" });
    expect(o.pubKeyCredParams.map((p: { alg: number }) => p.alg)).toEqual([-8, -7, -257]);
    expect(o).not.toHaveProperty("hints");
    const handle = base64url.decode(o.user.id);
    expect(handle.length).toBeGreaterThanOrEqual(1);
    expect(handle.length).toBeLessThanOrEqual(64);
    expect(new TextDecoder().decode(handle)).toBe(user.userId);
    expect(o.user.name).toBe(user.email);
    expect(base64url.decode(o.challenge).length).toBeGreaterThanOrEqual(16);
  });

  it("authentication options: sentinel rpId, no allowCredentials, a fresh challenge each time", async () => {
    const p = await passkeyProject();
    const a = await initiateAuthentication(p);
    const b = await initiateAuthentication(p);
    expect(a.options_json).toMatchObject({ rpId: SENTINEL, allowCredentials: [], userVerification: "preferred", timeout: 60000 });
    expect(a.options_json.challenge).not.toBe(b.options_json.challenge);
    expect(a.code).not.toBe(b.code);
  });

  it("registration needs a signed-in user", async () => {
    const p = await passkeyProject();
    const res = await call("/auth/passkey/initiate-passkey-registration", { ...p.client, body: {} });
    expect(res.body.code).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
  });

  it("the project flag gates every step", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const code = "a".repeat(45);
    const results = await Promise.all([
      call("/auth/passkey/initiate-passkey-registration", { ...p.client, accessToken: user.accessToken, body: {} }),
      call("/auth/passkey/register", { ...p.client, accessToken: user.accessToken, body: { credential: {}, code } }),
      call("/auth/passkey/initiate-passkey-authentication", { ...p.client, body: {} }),
      call("/auth/passkey/sign-in", { ...p.client, body: { authentication_response: {}, code } }),
    ]);
    for (const res of results) {
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("PASSKEY_AUTHENTICATION_NOT_ENABLED");
    }
  });

  it("unknown top-level keys are schema errors; inner WebAuthn keys are free-form", async () => {
    const p = await passkeyProject();
    const user = await signUp(p.client);
    const extra = await call("/auth/passkey/initiate-passkey-authentication", { ...p.client, body: { nope: 1 } });
    expect(extra.body.code).toBe("SCHEMA_ERROR");
    const { code } = await initiateRegistration(p, user);
    const notObject = await call("/auth/passkey/register", { ...p.client, accessToken: user.accessToken, body: { credential: "x", code } });
    expect(notObject.body.code).toBe("SCHEMA_ERROR");
    const malformed = await call("/auth/passkey/register", {
      ...p.client,
      accessToken: user.accessToken,
      body: { credential: { id: "abc", whatever: { nested: true } }, code },
    });
    expect(malformed.body.code).toBe("PASSKEY_REGISTRATION_FAILED");
  });
});

describe("passkey registration and sign-in", () => {
  it("a real registration, then a real sign-in that moves the counter", async () => {
    const p = await passkeyProject();
    const user = await signUp(p.client);
    const authenticator = await SoftAuthenticator.create();
    const reg = await register(p, user, authenticator);
    expect(reg.status).toBe(200);
    expect(reg.body).toEqual({ user_handle: base64url.encode(new TextEncoder().encode(user.userId)) });
    const me = await call("/users/me", { ...p.client, accessToken: user.accessToken });
    expect(me.body.passkey_auth_enabled).toBe(true);

    const res = await signIn(p, authenticator, { origin: ORIGIN, userHandle: reg.body.user_handle });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user_id: user.userId, is_new_user: false });
    // The reference's fields and Doorman's device token (issue 29: a passkey sign-in makes its device known).
    expect(Object.keys(res.body).sort()).toEqual(["access_token", "device_token", "is_new_user", "refresh_token", "user_id"]);
    expect((await call("/users/me", { ...p.client, accessToken: res.body.access_token })).body.id).toBe(user.userId);
    const row = await env.DB.prepare("SELECT counter, last_used_at, credential_id FROM passkeys WHERE user_id = ?")
      .bind(user.userId)
      .first<{ counter: number; last_used_at: number | null; credential_id: string }>();
    expect(row).toMatchObject({ counter: 1, credential_id: authenticator.id });
    expect(row?.last_used_at).toBeGreaterThan(0);

    expect((await signIn(p, authenticator)).status).toBe(200);
  });

  it("works on a trusted https domain, with that host as RP ID", async () => {
    const p = await passkeyProject();
    const user = await signUp(p.client);
    const authenticator = await SoftAuthenticator.create();
    expect((await register(p, user, authenticator, APP_ORIGIN)).status).toBe(200);
    expect((await signIn(p, authenticator, { origin: APP_ORIGIN })).status).toBe(200);
  });

  it("a tampered signature fails", async () => {
    const p = await passkeyProject();
    const { authenticator } = await userWithPasskey(p);
    const res = await signIn(p, authenticator, { origin: ORIGIN, tamper: true });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("PASSKEY_AUTHENTICATION_FAILED");
  });

  it("an origin that is not a trusted domain is rejected on both ceremonies", async () => {
    const p = await passkeyProject();
    const user = await signUp(p.client);
    const evil = await SoftAuthenticator.create();
    const reg = await register(p, user, evil, "https://evil.example.net");
    expect(reg.body.code).toBe("PASSKEY_REGISTRATION_FAILED");
    expect(reg.body.error).toMatch(/trusted domain/);
    const { authenticator } = await userWithPasskey(p);
    const res = await signIn(p, authenticator, { origin: "https://evil.example.net" });
    expect(res.body.code).toBe("PASSKEY_AUTHENTICATION_FAILED");
  });

  it("the RP ID must be the origin's host name", async () => {
    const p = await passkeyProject();
    const user = await signUp(p.client);
    const wrongRp = await register(p, user, await SoftAuthenticator.create(), APP_ORIGIN, "example.com");
    expect(wrongRp.body.code).toBe("PASSKEY_REGISTRATION_FAILED");
    const { authenticator } = await userWithPasskey(p);
    const res = await signIn(p, authenticator, { origin: ORIGIN, rpId: "evil.example.net" });
    expect(res.body.code).toBe("PASSKEY_AUTHENTICATION_FAILED");
  });

  it("a challenge expires after 65 seconds", async () => {
    const p = await passkeyProject();
    const user = await signUp(p.client);
    const { options_json, code } = await initiateRegistration(p, user);
    const credential = await (await SoftAuthenticator.create()).register(options_json, { origin: ORIGIN });
    const late = await call("/auth/passkey/register", {
      ...p.client,
      accessToken: user.accessToken,
      body: { credential, code },
      nowMs: Date.now() + 66_000,
    });
    expect(late.body.code).toBe("VERIFICATION_CODE_EXPIRED");

    const { authenticator } = await userWithPasskey(p);
    const auth = await initiateAuthentication(p);
    const authentication_response = await authenticator.authenticate(auth.options_json, { origin: ORIGIN });
    const lateSignIn = await call("/auth/passkey/sign-in", {
      ...p.client,
      body: { authentication_response, code: auth.code },
      nowMs: Date.now() + 66_000,
    });
    expect(lateSignIn.body.code).toBe("VERIFICATION_CODE_EXPIRED");
  });

  it("a registration challenge is single-use, even under concurrent requests", async () => {
    const p = await passkeyProject();
    const user = await signUp(p.client);
    const { options_json, code } = await initiateRegistration(p, user);
    const credential = await (await SoftAuthenticator.create()).register(options_json, { origin: ORIGIN });
    const send = () => call("/auth/passkey/register", { ...p.client, accessToken: user.accessToken, body: { credential, code } });
    const results = await Promise.all([send(), send()]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)?.body.code).toBe("VERIFICATION_CODE_ALREADY_USED");
    expect((await send()).body.code).toBe("VERIFICATION_CODE_ALREADY_USED");
  });

  it("a sign-in challenge is single-use: a replayed assertion fails", async () => {
    const p = await passkeyProject();
    const { authenticator } = await userWithPasskey(p);
    const { options_json, code } = await initiateAuthentication(p);
    const authentication_response = await authenticator.authenticate(options_json, { origin: ORIGIN });
    const send = () => call("/auth/passkey/sign-in", { ...p.client, body: { authentication_response, code } });
    const results = await Promise.all([send(), send()]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await send()).body.code).toBe("VERIFICATION_CODE_ALREADY_USED");
  });

  it("a failed attempt also uses the challenge up", async () => {
    const p = await passkeyProject();
    const { authenticator } = await userWithPasskey(p);
    const { options_json, code } = await initiateAuthentication(p);
    const bad = await authenticator.authenticate(options_json, { origin: ORIGIN, tamper: true });
    expect((await call("/auth/passkey/sign-in", { ...p.client, body: { authentication_response: bad, code } })).body.code).toBe(
      "PASSKEY_AUTHENTICATION_FAILED",
    );
    const good = await authenticator.authenticate(options_json, { origin: ORIGIN });
    expect((await call("/auth/passkey/sign-in", { ...p.client, body: { authentication_response: good, code } })).body.code).toBe(
      "VERIFICATION_CODE_ALREADY_USED",
    );
  });

  it("wrong codes: unknown, the other ceremony's, or another user's", async () => {
    const p = await passkeyProject();
    const { user, authenticator } = await userWithPasskey(p);
    const auth = await initiateAuthentication(p);
    const response = await authenticator.authenticate(auth.options_json, { origin: ORIGIN });
    const unknown = await call("/auth/passkey/sign-in", { ...p.client, body: { authentication_response: response, code: "b".repeat(45) } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("VERIFICATION_CODE_NOT_FOUND");

    const regCode = (await initiateRegistration(p, user)).code;
    const crossed = await call("/auth/passkey/sign-in", { ...p.client, body: { authentication_response: response, code: regCode } });
    expect(crossed.body.code).toBe("VERIFICATION_CODE_NOT_FOUND");

    const other = await signUp(p.client);
    const { options_json, code } = await initiateRegistration(p, user);
    const credential = await (await SoftAuthenticator.create()).register(options_json, { origin: ORIGIN });
    const stolen = await call("/auth/passkey/register", { ...p.client, accessToken: other.accessToken, body: { credential, code } });
    expect(stolen.body.code).toBe("PASSKEY_REGISTRATION_FAILED");
  });

  it("TOTP users get MULTI_FACTOR_AUTHENTICATION_REQUIRED instead of tokens", async () => {
    const p = await passkeyProject();
    const { user, authenticator } = await userWithPasskey(p);
    const secret = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(20))));
    await call("/users/me", { ...p.client, accessToken: user.accessToken, method: "PATCH", body: { totp_secret_base64: secret } });
    const res = await signIn(p, authenticator);
    expect(res.body.code).toBe("MULTI_FACTOR_AUTHENTICATION_REQUIRED");
    expect(res.body.details.attempt_code).toHaveLength(45);
  });

  it("turning passkey sign-in off stops the stored passkey; registering again replaces the old one", async () => {
    const p = await passkeyProject();
    const { user, authenticator } = await userWithPasskey(p);
    await call("/users/me", { ...p.client, accessToken: user.accessToken, method: "PATCH", body: { passkey_auth_enabled: false } });
    expect((await signIn(p, authenticator)).body.code).toBe("PASSKEY_AUTHENTICATION_FAILED");

    const replacement = await SoftAuthenticator.create();
    expect((await register(p, user, replacement)).status).toBe(200);
    const count = await env.DB.prepare("SELECT count(*) AS n FROM passkeys WHERE user_id = ?").bind(user.userId).first<{ n: number }>();
    expect(count?.n).toBe(1);
    expect((await signIn(p, authenticator)).body.code).toBe("PASSKEY_AUTHENTICATION_FAILED");
    expect((await signIn(p, replacement)).body.user_id).toBe(user.userId);
  });

  it("a credential id already registered to another user is refused", async () => {
    const p = await passkeyProject();
    const { authenticator } = await userWithPasskey(p);
    const attacker = await signUp(p.client);
    const res = await register(p, attacker, authenticator);
    expect(res.body.code).toBe("PASSKEY_REGISTRATION_FAILED");
    expect(res.body.error).toMatch(/another account/);
  });

  it("a signature counter that goes backwards (a cloned authenticator) is refused", async () => {
    const p = await passkeyProject();
    const { authenticator } = await userWithPasskey(p);
    expect((await signIn(p, authenticator)).status).toBe(200);
    expect((await signIn(p, authenticator)).status).toBe(200);
    authenticator.counter = 0; // the next assertion reports 1, below the stored 2
    expect((await signIn(p, authenticator)).body.code).toBe("PASSKEY_AUTHENTICATION_FAILED");
  });

  it("a user handle that does not match the credential's account is refused", async () => {
    const p = await passkeyProject();
    const { authenticator } = await userWithPasskey(p);
    const other = await signUp(p.client);
    const res = await signIn(p, authenticator, { origin: ORIGIN, userHandle: base64url.encode(new TextEncoder().encode(other.userId)) });
    expect(res.body.code).toBe("PASSKEY_AUTHENTICATION_FAILED");
  });
});

describe("a passkey as the required second factor (doorman.requireMfa)", () => {
  /** A passkey user of a project that then turns the required second factor on. */
  async function requiredMfaPasskeyUser() {
    const p = await passkeyProject();
    const { user, authenticator } = await userWithPasskey(p);
    const on = await call("/internal/projects/current", { ...p.admin, method: "PATCH", body: { config: { require_mfa: true } } });
    expect(on.status).toBe(200);
    return { p, user, authenticator };
  }

  it("a passkey user is not forced to enrol TOTP: a user-verified passkey sign-in satisfies the requirement", async () => {
    const { p, user, authenticator } = await requiredMfaPasskeyUser();
    const res = await signIn(p, authenticator);
    expect(res.status).toBe(200);
    expect(res.body.user_id).toBe(user.userId);
    expect((await call("/users/me", { ...p.client, accessToken: res.body.access_token })).status).toBe(200);
    // A user without a passkey in the same project still has to enrol.
    const plain = await call("/auth/password/sign-up", {
      ...p.client,
      body: { email: `plain-${crypto.randomUUID()}@example.com`, password: "correct horse battery" },
    });
    expect(plain.body.code).toBe("MULTI_FACTOR_AUTHENTICATION_REQUIRED");
    expect(plain.body.details.enrollment_required).toBe(true);
  });

  it("a password alone is not enough for a passkey user, and cannot enrol TOTP over the passkey", async () => {
    const { p, user } = await requiredMfaPasskeyUser();
    const res = await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: user.password } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("MULTI_FACTOR_AUTHENTICATION_REQUIRED");
    expect(res.body.details).toMatchObject({ enrollment_required: false, passkey_required: true });
    expect(res.body.access_token).toBeUndefined();
    const secret = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(20))));
    const enrol = await call("/auth/mfa/enroll", {
      ...p.client,
      body: { code: res.body.details.attempt_code, totp_secret_base64: secret, totp: "123456" },
    });
    expect(enrol.body.code).toBe("VERIFICATION_CODE_NOT_FOUND");
    const totp = await call("/auth/mfa/sign-in", {
      ...p.client,
      body: { type: "totp", totp: "123456", code: res.body.details.attempt_code },
    });
    expect(totp.body.code).toBe("INVALID_TOTP_CODE");
  });

  it("a passkey sign-in without user verification is possession only: it still has to enrol TOTP", async () => {
    const { p, authenticator } = await requiredMfaPasskeyUser();
    const { options_json, code } = await initiateAuthentication(p);
    const authentication_response = await authenticator.authenticate(options_json, { origin: ORIGIN, withoutUserVerification: true });
    const res = await call("/auth/passkey/sign-in", { ...p.client, body: { authentication_response, code } });
    expect(res.body.code).toBe("MULTI_FACTOR_AUTHENTICATION_REQUIRED");
    expect(res.body.details.enrollment_required).toBe(true);
  });

  it("a turned-off passkey does not count: the user enrols TOTP as any other", async () => {
    const { p, user } = await requiredMfaPasskeyUser();
    await call(`/users/${user.userId}`, { ...p.server, method: "PATCH", body: { passkey_auth_enabled: false } });
    const res = await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: user.password } });
    expect(res.body.code).toBe("MULTI_FACTOR_AUTHENTICATION_REQUIRED");
    expect(res.body.details.enrollment_required).toBe(true);
    expect(res.body.details.passkey_required).toBe(false);
  });
});
