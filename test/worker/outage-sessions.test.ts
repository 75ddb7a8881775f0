/**
 * Sessions that survive a D1 outage (issue 32; services/outage/session-mirror.ts has the design).
 * The worker gets a D1 that errors or stalls (test/helpers/d1-fault.ts); the session Durable
 * Objects keep their real D1, and their flush to D1 is run with runDurableObjectAlarm when D1 is
 * back. No timing is asserted beyond "it answered".
 */
import { env, runDurableObjectAlarm } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { forgetAuthRows } from "../../worker/db/auth-row-cache";
import { call, createProjectWithKeys, signUp } from "../helpers/api";
import { d1Fault, faultyEnv } from "../helpers/d1-fault";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

const fault = d1Fault();
const outageEnv = faultyEnv(fault);

beforeEach(() => {
  fault.mode = "ok";
});

/** Every call goes through the faulty D1 (it behaves as the real one while the mode is "ok"). */
const refresh = (p: Project, refreshToken: string, nowMs?: number) =>
  call("/auth/sessions/current/refresh", { ...p.client, method: "POST", refreshToken, nowMs, env: outageEnv });
const me = (p: Project, accessToken: string) => call("/users/me", { ...p.client, accessToken, env: outageEnv });
const signOut = (p: Project, accessToken: string) =>
  call("/auth/sessions/current", { ...p.client, method: "DELETE", body: {}, accessToken, env: outageEnv });

function claimsOf(accessToken: string): Record<string, any> {
  const payload = accessToken.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/");
  return JSON.parse(atob(payload));
}

async function setConfig(p: Project, config: Record<string, unknown>) {
  const res = await call("/internal/projects/current", { ...p.admin, method: "PATCH", body: { config } });
  expect(res.status).toBe(200);
}

async function lastUsedAt(sessionId: string): Promise<number | null> {
  const row = await env.DB.prepare("SELECT last_used_at FROM sessions WHERE id = ?").bind(sessionId).first<{ last_used_at: number }>();
  return row?.last_used_at ?? null;
}

const sessionObject = (sessionId: string) => env.SESSION_DO.get(env.SESSION_DO.idFromName(sessionId));

function expectNotFound(res: { status: number; body: any }) {
  expect(res.status).toBe(401);
  expect(res.body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
}

describe("a refresh during a D1 outage", () => {
  it("100 refreshes while D1 errors all answer a new access token from the session's object", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const before = claimsOf(user.accessToken);
    fault.mode = "error";
    const answers = await Promise.all(Array.from({ length: 100 }, () => refresh(p, user.refreshToken)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(100);
    expect(fault.refused).toBeGreaterThan(0);
    const claims = claimsOf(answers[99]!.body.access_token);
    // The stored claims, freshly signed: the same user and session, a new exp.
    expect({ ...claims, iat: 0, exp: 0 }).toEqual({ ...before, iat: 0, exp: 0 });
    expect(answers[99]!.body.refresh_token).toBeUndefined();
    fault.mode = "ok";
    expect((await me(p, answers[99]!.body.access_token)).status).toBe(200);
  });

  it("answers within the deadline while D1 stalls", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    fault.mode = "stall";
    const res = await refresh(p, user.refreshToken);
    expect(res.status).toBe(200);
    expect(claimsOf(res.body.access_token).sub).toBe(user.userId);
  });

  it("stamps the use in the object, and D1 catches up when it is back", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const sessionId = claimsOf(user.accessToken).refresh_token_id as string;
    const signedUpAt = (await lastUsedAt(sessionId))!;
    const later = signedUpAt + 3_600_000;
    fault.mode = "error";
    expect((await refresh(p, user.refreshToken, later)).status).toBe(200);
    expect(await lastUsedAt(sessionId)).toBe(signedUpAt);
    fault.mode = "ok";
    // The object's alarm flushes the stamp (its first try is a few seconds after the outage refresh).
    expect(await runDurableObjectAlarm(sessionObject(sessionId))).toBe(true);
    expect(await lastUsedAt(sessionId)).toBe(later);
  });

  it("an unknown or ended token is still refused", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    fault.mode = "error";
    const unknown = await refresh(p, "x".repeat(45));
    // No object knows the token: the outage is answered as such, never as a valid session.
    expect(unknown.status).toBe(503);
    expect(unknown.body.code).toBe("DATABASE_TEMPORARILY_UNAVAILABLE");
    // Past the session's expiry (a year), the object refuses it.
    expectNotFound(await refresh(p, user.refreshToken, Date.now() + 400 * 24 * 3_600_000));
  });

  it("a session from before the mirror (no mirrored claims) is mirrored at its next refresh, and changed claims are too", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const sessionId = claimsOf(user.accessToken).refresh_token_id as string;
    await env.DB.prepare("UPDATE sessions SET mirrored_claims = NULL WHERE id = ?").bind(sessionId).run();
    const renamed = await call("/users/me", { ...p.client, method: "PATCH", accessToken: user.accessToken, body: { display_name: "Ada" } });
    expect(renamed.status).toBe(200);
    expect((await refresh(p, user.refreshToken)).status).toBe(200);
    const row = await env.DB.prepare("SELECT mirrored_claims FROM sessions WHERE id = ?")
      .bind(sessionId)
      .first<{ mirrored_claims: string }>();
    expect(row?.mirrored_claims).toMatch(/^[0-9a-f]{64}$/);
    fault.mode = "error";
    const res = await refresh(p, user.refreshToken);
    expect(res.status).toBe(200);
    expect(claimsOf(res.body.access_token).name).toBe("Ada");
  });
});

describe("rotation during a D1 outage", () => {
  it("with rotation on, the current token refreshes (without rotating) and a long-retired one is refused", async () => {
    const p = await createProjectWithKeys();
    await setConfig(p, { refresh_token_rotation: true });
    const user = await signUp(p.client);
    const rotated = await refresh(p, user.refreshToken);
    expect(rotated.status).toBe(200);
    const current = rotated.body.refresh_token as string;
    expect(current).toBeTruthy();
    fault.mode = "error";
    const res = await refresh(p, current);
    expect(res.status).toBe(200);
    expect(res.body.refresh_token).toBeUndefined();
    // The rotated-out token inside the grace window still works; past it, it is refused.
    expect((await refresh(p, user.refreshToken)).status).toBe(200);
    expectNotFound(await refresh(p, user.refreshToken, Date.now() + 120_000));
    fault.mode = "ok";
    expect((await refresh(p, current)).status).toBe(200);
  });

  it("with rotation off, the same token keeps working through and after the outage", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    fault.mode = "error";
    expect((await refresh(p, user.refreshToken)).status).toBe(200);
    fault.mode = "ok";
    const after = await refresh(p, user.refreshToken);
    expect(after.status).toBe(200);
    expect(after.body.refresh_token).toBeUndefined();
  });
});

describe("sign-outs and revocations around a D1 outage", () => {
  it("a sign-out during the outage holds: the next refresh fails, also after D1 is back", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const sessionId = claimsOf(user.accessToken).refresh_token_id as string;
    fault.mode = "error";
    expect((await refresh(p, user.refreshToken)).status).toBe(200);
    const out = await signOut(p, user.accessToken);
    expect(out.status).toBe(200);
    expectNotFound(await refresh(p, user.refreshToken));
    fault.mode = "ok";
    await runDurableObjectAlarm(sessionObject(sessionId));
    expectNotFound(await refresh(p, user.refreshToken));
    expect(await lastUsedAt(sessionId)).toBeNull();
  });

  it("after the outage, a session its object holds as signed out is refused even while D1 still has its row", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const sessionId = claimsOf(user.accessToken).refresh_token_id as string;
    fault.mode = "error";
    expect((await refresh(p, user.refreshToken)).status).toBe(200);
    fault.mode = "ok";
    // As a sign-out during the outage leaves it: the object says revoked, D1's delete waits for the alarm.
    await sessionObject(sessionId).markRevoked();
    expect(await lastUsedAt(sessionId)).not.toBeNull();
    expectNotFound(await refresh(p, user.refreshToken));
  });

  it("a session signed out before the outage stays signed out during it", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    expect((await signOut(p, user.accessToken)).status).toBe(200);
    fault.mode = "error";
    expectNotFound(await refresh(p, user.refreshToken));
  });

  it("sign-out everywhere before the outage ends the other sessions during it, and keeps the caller's", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const other = await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: user.password } });
    expect(other.status).toBe(200);
    const everywhere = await call("/auth/sessions?user_id=me", { ...p.client, method: "DELETE", accessToken: user.accessToken });
    expect(everywhere.status).toBe(200);
    fault.mode = "error";
    expectNotFound(await refresh(p, other.body.refresh_token));
    expect((await refresh(p, user.refreshToken)).status).toBe(200);
  });

  it("signing every user of the project out before the outage holds during it", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const res = await call("/internal/projects/current/sessions", { ...p.admin, method: "DELETE" });
    expect(res.status).toBe(200);
    fault.mode = "error";
    expectNotFound(await refresh(p, user.refreshToken));
  });
});

describe("authenticating the request during a D1 outage", () => {
  it("a cold isolate authenticates the project and its key from the last-known-good copy", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    forgetAuthRows();
    fault.mode = "error";
    expect((await refresh(p, user.refreshToken)).status).toBe(200);
    // A key never seen valid is refused as it would be with D1.
    const wrongKey = await call("/auth/sessions/current/refresh", {
      ...p.client,
      publishableClientKey: "pck_not_a_key_of_this_project",
      method: "POST",
      refreshToken: user.refreshToken,
      env: outageEnv,
    });
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.body.code).toBe("INVALID_PUBLISHABLE_CLIENT_KEY");
  });

  it("/users/me answers from the token's claims, marked degraded, only where the project allows it", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    fault.mode = "error";
    const off = await me(p, user.accessToken);
    expect(off.status).toBe(503);
    expect(off.body.code).toBe("DATABASE_TEMPORARILY_UNAVAILABLE");
    fault.mode = "ok";
    await setConfig(p, { degraded_reads_from_token: true });
    forgetAuthRows();
    // The new config reaches the last-known-good copy with the next request's lookup.
    expect((await me(p, user.accessToken)).headers.get("x-doorman-degraded")).toBeNull();
    fault.mode = "error";
    const on = await me(p, user.accessToken);
    expect(on.status).toBe(200);
    expect(on.headers.get("x-doorman-degraded")).toBe("d1-unavailable");
    expect(on.body.id).toBe(user.userId);
    expect(on.body.primary_email).toBe(user.email);
    // Routes that need the user read from D1 answer the known 503, never a raw 500.
    const patch = await call("/users/me", { ...p.client, method: "PATCH", accessToken: user.accessToken, body: {}, env: outageEnv });
    expect(patch.status).toBe(503);
    fault.mode = "stall";
    expect((await me(p, user.accessToken)).status).toBe(200);
  });

  it("a route with no fallback answers the known 503, never a raw 500", async () => {
    const p = await createProjectWithKeys();
    await signUp(p.client);
    expect((await call("/users", { ...p.server, env: outageEnv })).status).toBe(200);
    fault.mode = "error";
    const list = await call("/users", { ...p.server, env: outageEnv });
    expect(list.status).toBe(503);
    expect(list.body.code).toBe("DATABASE_TEMPORARILY_UNAVAILABLE");
    const signIn = await call("/auth/password/sign-in", { ...p.client, body: { email: "a@example.com", password: "x" }, env: outageEnv });
    expect(signIn.status).toBe(503);
  });
});
