/**
 * Sessions that end when the user says so: an ended session's access token is refused at once,
 * sign-out everywhere (user, server, admin), and the project's session policy (idle timeout,
 * absolute lifetime, sessions per user) with the clock moved, never slept.
 */
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys, signUp } from "../helpers/api";
import { codeFrom, sinkEmailConfig, waitForMail } from "../helpers/mail";

const MINUTE = 60_000;

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

const me = (p: Project, accessToken: string, nowMs?: number) => call("/users/me", { ...p.client, accessToken, nowMs });
const refresh = (p: Project, refreshToken: string, nowMs?: number) =>
  call("/auth/sessions/current/refresh", { ...p.client, method: "POST", refreshToken, nowMs });

async function signIn(p: Project, email: string, password: string, nowMs?: number) {
  const res = await call("/auth/password/sign-in", { ...p.client, body: { email, password }, nowMs });
  expect(res.status).toBe(200);
  return { accessToken: res.body.access_token as string, refreshToken: res.body.refresh_token as string };
}

async function setPolicy(p: Project, config: Record<string, number>) {
  const res = await call("/internal/projects/current", { ...p.admin, method: "PATCH", body: { config } });
  expect(res.status).toBe(200);
}

function expectEnded(res: { status: number; body: any }) {
  expect(res.status).toBe(401);
  // An INVALID_ACCESS_TOKEN subtype: the SDKs refresh (and then sign out on REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED).
  expect(res.body.code).toBe("UNPARSABLE_ACCESS_TOKEN");
}

describe("an ended session's access token", () => {
  it("is refused at once after sign-out and after revocation from another device", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const second = await signIn(p, user.email, user.password);
    expect((await me(p, second.accessToken)).status).toBe(200);

    // Revoked from the first device: the second device's access token stops now, not at its exp.
    const list = await call("/auth/sessions?user_id=me", { ...p.client, accessToken: user.accessToken });
    const other = list.body.items.find((s: any) => !s.is_current_session).id;
    expect(
      (await call(`/auth/sessions/${other}?user_id=me`, { ...p.client, method: "DELETE", accessToken: user.accessToken })).status,
    ).toBe(200);
    expectEnded(await me(p, second.accessToken));
    expect((await refresh(p, second.refreshToken)).body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");

    // Signing out ends the token it signed out with.
    expect((await call("/auth/sessions/current", { ...p.client, method: "DELETE", body: {}, accessToken: user.accessToken })).status).toBe(
      200,
    );
    expectEnded(await me(p, user.accessToken));
    // Also on endpoints that need no user, as for any invalid token (wire §1).
    expectEnded(await call("/projects/current", { ...p.client, accessToken: user.accessToken }));
  });

  it("a password reset ends every session and its access tokens", async () => {
    const p = await createProjectWithKeys({ email_config: sinkEmailConfig() });
    const user = await signUp(p.client);
    const other = await signIn(p, user.email, user.password);
    await call("/auth/password/send-reset-code", {
      ...p.client,
      body: { email: user.email, callback_url: "http://localhost:3000/handler/password-reset" },
    });
    const [mail] = await waitForMail(user.email);
    expect(
      (await call("/auth/password/reset", { ...p.client, body: { code: codeFrom(mail!), password: "a brand new password" } })).status,
    ).toBe(200);
    expectEnded(await me(p, user.accessToken));
    expectEnded(await me(p, other.accessToken));
  });

  it("an owner's admin access token ends with the owner's session", async () => {
    const p = await createProjectWithKeys();
    expect((await call("/internal/projects/current", p.admin)).status).toBe(200);
    const signOut = await call("/auth/sessions/current", {
      projectId: "internal",
      accessType: "client",
      publishableClientKey: (await import("@doorman/shared/constants")).DEV_PUBLISHABLE_CLIENT_KEY,
      method: "DELETE",
      body: {},
      accessToken: p.owner.accessToken,
    });
    expect(signOut.status).toBe(200);
    const res = await call("/internal/projects/current", p.admin);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("UNPARSABLE_ADMIN_ACCESS_TOKEN");
  });
});

describe("sign out everywhere", () => {
  it("the user ends every other session and keeps this one", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const b = await signIn(p, user.email, user.password);
    const c = await signIn(p, user.email, user.password);
    const stranger = await signUp(p.client);

    const res = await call("/auth/sessions?user_id=me", { ...p.client, method: "DELETE", accessToken: user.accessToken });
    expect(res.body).toEqual({ success: true });
    expect((await me(p, user.accessToken)).status).toBe(200);
    expect((await refresh(p, user.refreshToken)).status).toBe(200);
    for (const s of [b, c]) {
      expectEnded(await me(p, s.accessToken));
      expect((await refresh(p, s.refreshToken)).status).toBe(401);
    }
    const list = await call("/auth/sessions?user_id=me", { ...p.client, accessToken: user.accessToken });
    expect(list.body.items).toHaveLength(1);
    // Another user's sessions are untouched, and a client cannot name another user.
    expect((await me(p, stranger.accessToken)).status).toBe(200);
    const foreign = await call(`/auth/sessions?user_id=${stranger.userId}`, {
      ...p.client,
      method: "DELETE",
      accessToken: user.accessToken,
    });
    expect(foreign.status).toBe(403);
    expect((await me(p, stranger.accessToken)).status).toBe(200);
    // Without a signed-in user there is no "me".
    expect((await call("/auth/sessions?user_id=me", { ...p.client, method: "DELETE" })).body.code).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
  });

  for (const level of ["server", "admin"] as const) {
    it(`${level} access ends every session of any user`, async () => {
      const p = await createProjectWithKeys();
      const user = await signUp(p.client);
      const b = await signIn(p, user.email, user.password);
      const bystander = await signUp(p.client);
      const creds = level === "server" ? p.server : p.adminKey;
      const res = await call(`/auth/sessions?user_id=${user.userId}`, { ...creds, method: "DELETE" });
      expect(res.body).toEqual({ success: true });
      for (const s of [user, b]) {
        expectEnded(await me(p, s.accessToken));
        expect((await refresh(p, s.refreshToken)).status).toBe(401);
      }
      expect((await call(`/auth/sessions?user_id=${user.userId}`, creds)).body.items).toEqual([]);
      expect((await me(p, bystander.accessToken)).status).toBe(200);
      // An unknown user (or another project's) is not found, not a silent success.
      const unknown = await call(`/auth/sessions?user_id=${crypto.randomUUID()}`, { ...creds, method: "DELETE" });
      expect(unknown.body.code).toBe("USER_NOT_FOUND");
    });
  }
});

describe("the project's session policy", () => {
  it("defaults to no idle timeout, no absolute lifetime and no maximum", async () => {
    const p = await createProjectWithKeys();
    const read = await call("/internal/projects/current", p.admin);
    expect(read.body.config).toMatchObject({ session_idle_timeout_minutes: 0, session_max_lifetime_minutes: 0, max_sessions_per_user: 0 });
    const config = await call("/internal/config", p.admin);
    expect(JSON.parse(config.body.config_string).doorman.sessions).toEqual({ idleTimeoutMinutes: 0, maxLifetimeMinutes: 0, maxPerUser: 0 });
    const user = await signUp(p.client);
    // Half a year without use still refreshes by default (the session itself lives a year).
    expect((await refresh(p, user.refreshToken, Date.now() + 180 * 24 * 60 * MINUTE)).status).toBe(200);
  });

  it("an idle timeout ends a session not refreshed for that long; using it keeps it alive", async () => {
    const p = await createProjectWithKeys();
    await setPolicy(p, { session_idle_timeout_minutes: 30 });
    const t0 = Date.now();
    const user = await signUp(p.client);
    // Used at +20 min: alive; idle again until +45 (25 min): still alive; then +80 (35 min idle): ended.
    expect((await refresh(p, user.refreshToken, t0 + 20 * MINUTE)).status).toBe(200);
    expect((await refresh(p, user.refreshToken, t0 + 45 * MINUTE)).status).toBe(200);
    const late = await refresh(p, user.refreshToken, t0 + 80 * MINUTE);
    expect(late.status).toBe(401);
    expect(late.body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  });

  it("an idle timeout holds on the rotation path too", async () => {
    const p = await createProjectWithKeys({ refresh_token_rotation: true, session_idle_timeout_minutes: 30 });
    const user = await signUp(p.client);
    expect((await refresh(p, user.refreshToken, Date.now() + 40 * MINUTE)).body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  });

  it("an absolute lifetime ends a session however much it is used", async () => {
    const p = await createProjectWithKeys();
    await setPolicy(p, { session_max_lifetime_minutes: 60 });
    const t0 = Date.now();
    const user = await signUp(p.client);
    for (const at of [15, 30, 45]) expect((await refresh(p, user.refreshToken, t0 + at * MINUTE)).status).toBe(200);
    const late = await refresh(p, user.refreshToken, t0 + 61 * MINUTE);
    expect(late.body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    // The access token of a session past its lifetime is refused too (the token itself is still valid here).
    const fresh = await refresh(p, user.refreshToken, t0 + 55 * MINUTE);
    expect(fresh.status).toBe(200);
    expectEnded(await me(p, fresh.body.access_token, t0 + 61 * MINUTE));
  });

  it("a maximum of sessions per user ends the oldest first, also with concurrent sign-ins", async () => {
    // Eight sign-ins of one account from the tests' one address: the sign-in limits are not under test here.
    const p = await createProjectWithKeys({ rate_limits: { SIGN_IN_PER_IP: "0", SIGN_IN_PER_EMAIL_IP: "0" } });
    await setPolicy(p, { max_sessions_per_user: 2 });
    const t0 = Date.now();
    const user = await signUp(p.client, undefined, "correct horse battery");
    const second = await signIn(p, user.email, user.password, t0 + 1000);
    const third = await signIn(p, user.email, user.password, t0 + 2000);
    // The oldest (the sign-up's) is ended, at once for its access token too.
    expect((await refresh(p, user.refreshToken)).status).toBe(401);
    expectEnded(await me(p, user.accessToken));
    expect((await refresh(p, second.refreshToken)).status).toBe(200);
    expect((await refresh(p, third.refreshToken)).status).toBe(200);

    const burst = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => signIn(p, user.email, user.password, t0 + 3000 + i)));
    const list = await call(`/auth/sessions?user_id=${user.userId}`, p.server);
    expect(list.body.items).toHaveLength(2);
    const alive = (await Promise.all([second, third, ...burst].map((s) => refresh(p, s.refreshToken)))).filter((r) => r.status === 200);
    expect(alive).toHaveLength(2);
  });

  it("refuses values out of range", async () => {
    const p = await createProjectWithKeys();
    for (const config of [
      { session_idle_timeout_minutes: -1 },
      { max_sessions_per_user: 1.5 },
      { session_max_lifetime_minutes: 10 ** 9 },
    ]) {
      const res = await call("/internal/projects/current", { ...p.admin, method: "PATCH", body: { config } });
      expect(res.body.code).toBe("SCHEMA_ERROR");
    }
    const override = await call("/internal/config/override/environment", {
      ...p.admin,
      method: "PATCH",
      body: { config_override_string: JSON.stringify({ "doorman.sessions.maxPerUser": 3 }) },
    });
    expect(override.status).toBe(200);
    expect((await call("/internal/projects/current", p.admin)).body.config.max_sessions_per_user).toBe(3);
  });
});

describe("sign out all users of a project (ASVS 7.4.5)", () => {
  const endAll = (creds: Record<string, unknown>) => call("/internal/projects/current/sessions", { ...creds, method: "DELETE" });

  it("admin access ends every user's refresh and access tokens in the project, and no other project's", async () => {
    const p = await createProjectWithKeys();
    const a = await signUp(p.client);
    const a2 = await signIn(p, a.email, a.password);
    const b = await signUp(p.client);
    const other = await createProjectWithKeys();
    const outsider = await signUp(other.client);

    for (const creds of [p.admin, p.adminKey]) {
      const res = await endAll(creds);
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      if (creds === p.admin) expect(res.body.ended_session_count).toBe(3);
      else expect(res.body.ended_session_count).toBe(0);
    }
    for (const s of [a, a2, b]) {
      expectEnded(await me(p, s.accessToken));
      expect((await refresh(p, s.refreshToken)).body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    }
    // Another project's users, and the console owner's own session (internal project), are untouched.
    expect((await me(other, outsider.accessToken)).status).toBe(200);
    expect((await refresh(other, outsider.refreshToken)).status).toBe(200);
    expect((await call("/internal/projects/current", p.admin)).status).toBe(200);
    expect((await call("/internal/projects/current", other.admin)).status).toBe(200);
    // Users sign in again as usual.
    const again = await signIn(p, a.email, a.password);
    expect((await me(p, again.accessToken)).status).toBe(200);
  });

  it("is refused with client and server keys", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    for (const creds of [p.server, { ...p.client, accessToken: user.accessToken }]) {
      const res = await endAll(creds);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
    }
    expect((await me(p, user.accessToken)).status).toBe(200);
  });

  it("never ends the internal project's sessions (the console owners')", async () => {
    const p = await createProjectWithKeys();
    const internalAdmin = { projectId: "internal", accessType: "admin", adminAccessToken: p.owner.accessToken } as const;
    const res = await endAll(internalAdmin);
    expect(res.status).not.toBe(200);
    expect((await call("/internal/projects/current", p.admin)).status).toBe(200);
  });

  for (const rotation of [false, true]) {
    it(`concurrent refreshes${rotation ? " (with rotation)" : ""} answer 200 or not found, never a 5xx`, async () => {
      const p = await createProjectWithKeys({ refresh_token_rotation: rotation });
      const user = await signUp(p.client);
      const sessions = [user, ...(await Promise.all([1, 2, 3].map(() => signIn(p, user.email, user.password))))];
      const [ended, ...refreshes] = await Promise.all([
        endAll(p.admin),
        ...sessions.flatMap((s) => [refresh(p, s.refreshToken), refresh(p, s.refreshToken)]),
      ]);
      expect(ended.status).toBe(200);
      for (const r of refreshes) {
        expect(r.status === 200 || r.body.code === "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED").toBe(true);
      }
      // Afterwards every session is gone, whichever refresh ran first.
      for (const s of sessions) {
        expect((await refresh(p, s.refreshToken)).body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
        expectEnded(await me(p, s.accessToken));
      }
      for (const r of refreshes.filter((r) => r.status === 200)) expectEnded(await me(p, r.body.access_token));
    });
  }
});
