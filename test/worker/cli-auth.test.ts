/** CLI login (/auth/cli, /poll, /complete): every state, one-shot hand-out, hashed storage, anon sessions. */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../worker/crypto/hash";
import { type CallOptions, call, createProjectWithKeys, internalClient, signUp } from "../helpers/api";

const HOUR = 3600_000;

async function start(body: Record<string, unknown> = {}, project: CallOptions = internalClient, extra: CallOptions = {}) {
  return call("/auth/cli", { ...project, ...extra, body });
}

async function startOk(body: Record<string, unknown> = {}) {
  const res = await start(body);
  expect(res.status).toBe(200);
  return res.body as { polling_code: string; login_code: string; expires_at: string };
}

function poll(pollingCode: string, extra: CallOptions = {}) {
  return call("/auth/cli/poll", { ...internalClient, ...extra, body: { polling_code: pollingCode } });
}

function complete(body: Record<string, unknown>, extra: CallOptions = {}) {
  return call("/auth/cli/complete", { ...internalClient, ...extra, body });
}

describe("POST /auth/cli", () => {
  it("returns two 45-character codes and an ISO expiry, 2 h by default", async () => {
    const before = Date.now();
    const started = await startOk();
    expect(started.polling_code).toMatch(/^[0-9a-z]{45}$/);
    expect(started.login_code).toMatch(/^[0-9a-z]{45}$/);
    expect(started.polling_code).not.toBe(started.login_code);
    const expiresAt = Date.parse(started.expires_at);
    expect(new Date(expiresAt).toISOString()).toBe(started.expires_at);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 2 * HOUR);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 2 * HOUR);
  });

  it("accepts expires_in_millis up to 24 h and refuses anything outside 1 ms..24 h", async () => {
    const max = await startOk({ expires_in_millis: 24 * HOUR });
    expect(Date.parse(max.expires_at)).toBeGreaterThan(Date.now() + 23.9 * HOUR);
    const short = await startOk({ expires_in_millis: 90_000 });
    expect(Date.parse(short.expires_at)).toBeLessThanOrEqual(Date.now() + 90_000);
    for (const bad of [24 * HOUR + 1, 0, -5, 1.5, "600000"]) {
      const res = await start({ expires_in_millis: bad });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("SCHEMA_ERROR");
    }
    expect((await start({ unknown_field: true })).body.code).toBe("SCHEMA_ERROR");
  });

  it("stores only hashes of the codes in KV", async () => {
    const started = await startOk();
    const [pollHash, loginHash] = await Promise.all([sha256Hex(started.polling_code), sha256Hex(started.login_code)]);
    const listed = await env.KV.list({ prefix: "cli:" });
    const keys = listed.keys.map((k) => k.name);
    expect(keys).toContain(`cli:poll:${pollHash}`);
    expect(keys).toContain(`cli:login:${loginHash}`);
    for (const key of keys) {
      const value = (await env.KV.get(key)) ?? "";
      for (const raw of [started.polling_code, started.login_code]) {
        expect(key).not.toContain(raw);
        expect(value).not.toContain(raw);
      }
    }
    // Every entry expires (KV TTL), besides the expires_at enforced in code.
    const entry = listed.keys.find((k) => k.name === `cli:poll:${pollHash}`);
    expect(entry?.expiration).toBeGreaterThan(Date.now() / 1000);
  });

  it("is rate-limited per IP", async () => {
    const headers = { "cf-connecting-ip": "203.0.113.77" };
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await start({}, internalClient, { headers })).status);
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
    expect((await start({}, internalClient, { headers: { "cf-connecting-ip": "203.0.113.78" } })).status).toBe(200);
  });
});

describe("POST /auth/cli/poll", () => {
  it("waits, then hands out a new session's refresh token exactly once (201), then says used", async () => {
    const user = await signUp();
    const started = await startOk();
    const waiting = await poll(started.polling_code);
    expect(waiting.status).toBe(200);
    expect(waiting.body).toEqual({ status: "waiting" });

    const done = await complete({ login_code: started.login_code }, { accessToken: user.accessToken });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ success: true });

    const success = await poll(started.polling_code);
    expect(success.status).toBe(201);
    expect(success.body.status).toBe("success");
    const refreshToken: string = success.body.refresh_token;
    expect(refreshToken).toMatch(/^[0-9a-z]{45}$/);
    expect(refreshToken).not.toBe(user.refreshToken);

    // The token really works, for the confirming user.
    const refreshed = await call("/auth/sessions/current/refresh", { ...internalClient, method: "POST", refreshToken });
    expect(refreshed.status).toBe(200);
    const me = await call("/users/me", { ...internalClient, accessToken: refreshed.body.access_token });
    expect(me.body.id).toBe(user.userId);
    // …as a session of its own next to the browser's.
    const sessions = await call("/auth/sessions?user_id=me", { ...internalClient, accessToken: user.accessToken });
    expect(sessions.body.items).toHaveLength(2);

    const again = await poll(started.polling_code);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ status: "used" });
  });

  it("concurrent polls after completion: exactly one 201, the rest 'used'", async () => {
    const user = await signUp();
    const started = await startOk();
    expect((await complete({ login_code: started.login_code }, { accessToken: user.accessToken })).status).toBe(200);
    const results = await Promise.all(Array.from({ length: 8 }, () => poll(started.polling_code)));
    const winners = results.filter((r) => r.status === 201);
    expect(winners).toHaveLength(1);
    expect(winners[0]?.body.refresh_token).toMatch(/^[0-9a-z]{45}$/);
    for (const r of results.filter((x) => x.status !== 201)) expect(r.body).toEqual({ status: "used" });
    const sessions = await call("/auth/sessions?user_id=me", { ...internalClient, accessToken: user.accessToken });
    expect(sessions.body.items).toHaveLength(2);
  });

  it("says expired once the clock passes expires_at (even after completion)", async () => {
    const user = await signUp();
    const started = await startOk({ expires_in_millis: 60_000 });
    expect((await poll(started.polling_code, { nowMs: Date.now() + 61_000 })).body).toEqual({ status: "expired" });
    expect((await complete({ login_code: started.login_code }, { accessToken: user.accessToken })).status).toBe(200);
    const late = await poll(started.polling_code, { nowMs: Date.now() + 61_000 });
    expect(late.status).toBe(200);
    expect(late.body).toEqual({ status: "expired" });
  });

  it("unknown, malformed or other-project polling codes → INVALID_POLLING_CODE", async () => {
    const started = await startOk();
    for (const pollingCode of ["x".repeat(45), "short", started.login_code]) {
      const res = await poll(pollingCode);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("INVALID_POLLING_CODE");
    }
    const other = await createProjectWithKeys();
    const res = await poll(started.polling_code, other.client);
    expect(res.body.code).toBe("INVALID_POLLING_CODE");
    expect((await poll(started.polling_code)).body).toEqual({ status: "waiting" });
    expect((await call("/auth/cli/poll", { ...internalClient, body: {} })).body.code).toBe("SCHEMA_ERROR");
  });
});

describe("POST /auth/cli/complete", () => {
  it("refuses unknown, expired and already-completed login codes with plain 400s", async () => {
    const user = await signUp();
    const asUser = { accessToken: user.accessToken };
    const unknown = await complete({ login_code: "y".repeat(45) }, asUser);
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get("x-stack-known-error")).toBeNull();
    expect(unknown.text).toMatch(/invalid/i);

    const expiring = await startOk({ expires_in_millis: 60_000 });
    const expired = await complete({ login_code: expiring.login_code }, { ...asUser, nowMs: Date.now() + 61_000 });
    expect(expired.status).toBe(400);
    expect(expired.text).toMatch(/expired/);

    const started = await startOk();
    expect((await complete({ login_code: started.login_code }, asUser)).status).toBe(200);
    const twice = await complete({ login_code: started.login_code }, asUser);
    expect(twice.status).toBe(400);
    expect(twice.text).toMatch(/already been completed/);
    expect((await poll(started.polling_code)).status).toBe(201);
    const used = await complete({ login_code: started.login_code }, asUser);
    expect(used.status).toBe(400);
    expect((await complete({ login_code: started.login_code, mode: "check" }, asUser)).status).toBe(400);
  });

  it("needs a signed-in user, or a refresh token as the reference page sends it", async () => {
    const user = await signUp();
    const other = await signUp();
    const started = await startOk();
    const nobody = await complete({ login_code: started.login_code });
    expect(nobody.status).toBe(400);
    expect(nobody.text).toContain("refresh_token is required");
    const mismatch = await complete(
      { login_code: started.login_code, refresh_token: other.refreshToken },
      { accessToken: user.accessToken },
    );
    expect(mismatch.status).toBe(400);
    expect((await complete({ login_code: started.login_code, refresh_token: "nope" })).status).toBe(400);
    expect((await poll(started.polling_code)).body).toEqual({ status: "waiting" });

    const ok = await complete({ login_code: started.login_code, refresh_token: user.refreshToken });
    expect(ok.body).toEqual({ success: true });
    // It waits sealed in KV, never in clear.
    const stored = await Promise.all((await env.KV.list({ prefix: "cli:poll:" })).keys.map((k) => env.KV.get(k.name)));
    expect(stored.some((v) => v?.includes(user.refreshToken))).toBe(false);
    const success = await poll(started.polling_code);
    // The wire: the CLI receives exactly the refresh token the browser passed.
    expect(success.status).toBe(201);
    expect(success.body.refresh_token).toBe(user.refreshToken);
    const refreshed = await call("/auth/sessions/current/refresh", {
      ...internalClient,
      method: "POST",
      refreshToken: success.body.refresh_token,
    });
    const me = await call("/users/me", { ...internalClient, accessToken: refreshed.body.access_token });
    expect(me.body.id).toBe(user.userId);
  });

  it("a passed refresh token is handed out once under 20 concurrent polls", async () => {
    const user = await signUp();
    const started = await startOk();
    expect((await complete({ login_code: started.login_code, refresh_token: user.refreshToken })).status).toBe(200);
    const results = await Promise.all(Array.from({ length: 20 }, () => poll(started.polling_code)));
    const winners = results.filter((r) => r.status === 201);
    expect(winners).toHaveLength(1);
    expect(winners[0]?.body.refresh_token).toBe(user.refreshToken);
    for (const r of results.filter((x) => x.status !== 201)) expect(r.body).toEqual({ status: "used" });
  });

  it("an anonymous user cannot confirm a CLI login", async () => {
    const anon = await call("/auth/anonymous/sign-up", { ...internalClient, body: {} });
    const started = await startOk();
    const res = await complete({ login_code: started.login_code }, { accessToken: anon.body.access_token, allowAnonymous: true });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("RESTRICTED_USER_NOT_ALLOWED");
    expect(res.body.details.restricted_reason).toEqual({ type: "anonymous" });
  });

  it("check and claim-anon-session: the CLI's anonymous session, handed to the browser once", async () => {
    const anon = await call("/auth/anonymous/sign-up", { ...internalClient, body: {} });
    const plain = await startOk();
    expect((await complete({ login_code: plain.login_code, mode: "check" })).body).toEqual({ cli_session_state: "none" });
    expect((await complete({ login_code: plain.login_code, mode: "claim-anon-session" })).status).toBe(400);

    const started = await startOk({ anon_refresh_token: anon.body.refresh_token });
    expect((await complete({ login_code: started.login_code, mode: "check" })).body).toEqual({ cli_session_state: "anonymous" });
    const claimed = await complete({ login_code: started.login_code, mode: "claim-anon-session" });
    expect(claimed.status).toBe(200);
    expect(Object.keys(claimed.body).sort()).toEqual(["access_token", "refresh_token"]);
    expect(claimed.body.refresh_token).not.toBe(anon.body.refresh_token);
    const me = await call("/users/me", { ...internalClient, accessToken: claimed.body.access_token, allowAnonymous: true });
    expect(me.body.id).toBe(anon.body.user_id);
    expect(me.body.is_anonymous).toBe(true);

    // One-shot: a replayed claim fails, and check no longer reports an anonymous session.
    expect((await complete({ login_code: started.login_code, mode: "claim-anon-session" })).status).toBe(400);
    expect((await complete({ login_code: started.login_code, mode: "check" })).body).toEqual({ cli_session_state: "none" });
    // The login itself is still pending for a real user to confirm.
    expect((await poll(started.polling_code)).body).toEqual({ status: "waiting" });
  });

  it("anon_refresh_token must be a live session of an anonymous user of this project", async () => {
    const user = await signUp();
    expect((await start({ anon_refresh_token: user.refreshToken })).status).toBe(400);
    expect((await start({ anon_refresh_token: "not-a-token" })).status).toBe(400);
    const other = await createProjectWithKeys();
    const foreignAnon = await call("/auth/anonymous/sign-up", { ...other.client, body: {} });
    expect(foreignAnon.status).toBe(200);
    expect((await start({ anon_refresh_token: foreignAnon.body.refresh_token })).status).toBe(400);
    expect((await start({ anon_refresh_token: foreignAnon.body.refresh_token }, other.client)).status).toBe(200);
  });

  it("rejects an unknown mode", async () => {
    const started = await startOk();
    expect((await complete({ login_code: started.login_code, mode: "steal" })).body.code).toBe("SCHEMA_ERROR");
  });
});
