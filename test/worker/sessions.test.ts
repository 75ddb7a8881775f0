/** Sessions: refresh on both endpoints via the SessionDO, the refresh race, rotation, revocation. */

import { env } from "cloudflare:test";
import { DEV_PUBLISHABLE_CLIENT_KEY, PUBLIC_CLIENT_SENTINEL } from "@doorman/shared/constants";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../worker/crypto/hash";
import { call, createProjectWithKeys, internalClient, internalServer, signUp } from "../helpers/api";
import { workerFetch } from "../helpers/worker-fetch";

async function tokenGrant(fields: Record<string, string>) {
  const res = await workerFetch("http://localhost/api/v1/auth/oauth/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

const refreshGrant = (refreshToken: string, extra: Record<string, string> = {}) =>
  tokenGrant({
    grant_type: "refresh_token",
    refresh_token: refreshToken,
    client_id: "internal",
    client_secret: DEV_PUBLISHABLE_CLIENT_KEY,
    ...extra,
  });

describe("refresh", () => {
  it("POST /auth/oauth/token refreshes (form body, client id and secret rules)", async () => {
    const user = await signUp();
    const ok = await refreshGrant(user.refreshToken);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ token_type: "Bearer", scope: "legacy" });
    expect(ok.headers.get("pragma")).toBe("no-cache");
    const me = await call("/users/me", { ...internalClient, accessToken: ok.body.access_token });
    expect(me.body.id).toBe(user.userId);

    expect((await refreshGrant(user.refreshToken, { client_secret: PUBLIC_CLIENT_SENTINEL })).status).toBe(200);
    expect((await refreshGrant(user.refreshToken, { client_id: "internal#main" })).status).toBe(200);
    expect((await refreshGrant(user.refreshToken, { client_secret: "wrong" })).body.code).toBe("INVALID_OAUTH_CLIENT_ID_OR_SECRET");
    expect((await refreshGrant(user.refreshToken, { client_id: "internal#dev" })).body.code).toBe("INVALID_OAUTH_CLIENT_ID_OR_SECRET");
    expect((await refreshGrant(user.refreshToken, { client_id: "no-such-project" })).body.code).toBe("INVALID_OAUTH_CLIENT_ID_OR_SECRET");
  });

  it("accepts a JSON body too", async () => {
    const user = await signUp();
    const res = await call("/auth/oauth/token", {
      body: {
        grant_type: "refresh_token",
        refresh_token: user.refreshToken,
        client_id: "internal",
        client_secret: DEV_PUBLISHABLE_CLIENT_KEY,
        extra_field: "ignored",
      },
    });
    expect(res.status).toBe(200);
  });

  it("bad refresh tokens are REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED (401)", async () => {
    for (const token of ["nope", "undefined", "a".repeat(45)]) {
      const res = await refreshGrant(token);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    }
    const current = await call("/auth/sessions/current/refresh", { ...internalClient, method: "POST", refreshToken: "nope" });
    expect(current.status).toBe(401);
    expect(current.body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  });

  it("a refresh token of another project does not work", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    expect((await refreshGrant(user.refreshToken)).status).toBe(401);
    const own = await tokenGrant({
      grant_type: "refresh_token",
      refresh_token: user.refreshToken,
      client_id: p.projectId,
      client_secret: p.client.publishableClientKey,
    });
    expect(own.status).toBe(200);
  });

  it("stores refresh tokens only as SHA-256", async () => {
    const user = await signUp();
    const plain = await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE refresh_token_hash = ?")
      .bind(user.refreshToken)
      .first<{ n: number }>();
    const hashed = await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE refresh_token_hash = ?")
      .bind(await sha256Hex(user.refreshToken))
      .first<{ n: number }>();
    expect(plain?.n).toBe(0);
    expect(hashed?.n).toBe(1);
  });

  it("two concurrent refreshes of one session both succeed", async () => {
    const user = await signUp();
    const [a, b] = await Promise.all([refreshGrant(user.refreshToken), refreshGrant(user.refreshToken)]);
    expect([a.status, b.status]).toEqual([200, 200]);
  });

  it("an expired session cannot refresh (clock moved, not slept)", async () => {
    const user = await signUp();
    const session = await call("/auth/sessions", { ...internalServer, body: { user_id: user.userId, expires_in_millis: 60_000 } });
    expect(session.status).toBe(200);
    const later = Date.now() + 120_000;
    const res = await call("/auth/sessions/current/refresh", {
      ...internalClient,
      method: "POST",
      refreshToken: session.body.refresh_token,
      nowMs: later,
    });
    expect(res.body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  });
});

describe("the reference's refresh race", () => {
  for (const endpoint of ["/auth/sessions/current/refresh", "/auth/oauth/token"] as const) {
    it(`refresh racing sign-out on ${endpoint}: only 200 or 401, never 5xx`, async () => {
      for (let round = 0; round < 10; round++) {
        const user = await signUp();
        const refresh =
          endpoint === "/auth/oauth/token"
            ? refreshGrant(user.refreshToken)
            : call(endpoint, { ...internalClient, method: "POST", refreshToken: user.refreshToken });
        const signOut = call("/auth/sessions/current", { ...internalClient, method: "DELETE", accessToken: user.accessToken });
        const [r, s] = await Promise.all([refresh, signOut]);
        expect(s.status).toBe(200);
        expect([200, 401]).toContain(r.status);
        if (r.status === 401) expect(r.body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
        // Whatever the order, the session is gone afterwards.
        expect((await refreshGrant(user.refreshToken)).status).toBe(401);
      }
    });
  }
});

describe("rotation with reuse detection (per-project setting)", () => {
  it("rotates, honours the grace window, then revokes the session on reuse", async () => {
    const p = await createProjectWithKeys({ refresh_token_rotation: true });
    const user = await signUp(p.client);
    const grant = (token: string, nowMs?: number) =>
      call("/auth/oauth/token", {
        body: { grant_type: "refresh_token", refresh_token: token, client_id: p.projectId, client_secret: p.client.publishableClientKey },
        nowMs,
      });
    const first = await grant(user.refreshToken);
    expect(first.status).toBe(200);
    const rotated: string = first.body.refresh_token;
    expect(rotated).not.toBe(user.refreshToken);

    // A concurrent tab still holding the old token inside the grace window gets an access token.
    expect((await grant(user.refreshToken)).status).toBe(200);
    // The new token works.
    expect((await grant(rotated)).status).toBe(200);
    // Reusing a rotated-out token after the grace window revokes the whole session.
    const replay = await grant(user.refreshToken, Date.now() + 5 * 60_000);
    expect(replay.body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    const after = await call("/auth/sessions", { ...p.server, nowMs: Date.now() + 5 * 60_000, headers: {} });
    expect(after.status).toBe(400); // user_id is required: schema error, not a 500
    const list = await call(`/auth/sessions?user_id=${user.userId}`, p.server);
    expect(list.body.items).toHaveLength(0);
  });

  it("is off by default: the refresh token stays the same", async () => {
    const user = await signUp();
    const res = await refreshGrant(user.refreshToken);
    expect(res.body.refresh_token).toBe(user.refreshToken);
  });
});

describe("session management", () => {
  it("server creates sessions; list marks the current one; impersonation is flagged", async () => {
    const user = await signUp();
    const imp = await call("/auth/sessions", { ...internalServer, body: { user_id: user.userId, is_impersonation: true } });
    expect(imp.status).toBe(200);
    expect(typeof imp.body.access_token).toBe("string");
    const list = await call("/auth/sessions?user_id=me", { ...internalClient, accessToken: user.accessToken });
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(2);
    const current = list.body.items.filter((s: any) => s.is_current_session);
    expect(current).toHaveLength(1);
    expect(list.body.items.filter((s: any) => s.is_impersonation)).toHaveLength(1);
    for (const s of list.body.items)
      expect(Object.keys(s)).toEqual(expect.arrayContaining(["id", "user_id", "created_at", "is_impersonation", "last_used_at"]));
  });

  it("server session creation validates input", async () => {
    expect((await call("/auth/sessions", { ...internalServer, body: { user_id: "6f1a4f0e-3b5d-4c1e-9a7b-000000000000" } })).body.code).toBe(
      "USER_ID_DOES_NOT_EXIST",
    );
    expect((await call("/auth/sessions", { ...internalServer, body: { user_id: "x" } })).body.code).toBe("SCHEMA_ERROR");
    expect(
      (
        await call("/auth/sessions", {
          ...internalServer,
          body: { user_id: "6f1a4f0e-3b5d-4c1e-9a7b-000000000000", expires_in_millis: 400 * 86400_000 },
        })
      ).body.code,
    ).toBe("SCHEMA_ERROR");
    expect((await call("/auth/sessions", { ...internalClient, body: { user_id: "6f1a4f0e-3b5d-4c1e-9a7b-000000000000" } })).body.code).toBe(
      "INSUFFICIENT_ACCESS_TYPE",
    );
  });

  it("deleting sessions: not the current one, only your own", async () => {
    const user = await signUp();
    const other = await call("/auth/password/sign-in", { ...internalClient, body: { email: user.email, password: user.password } });
    const list = await call("/auth/sessions?user_id=me", { ...internalClient, accessToken: user.accessToken });
    const currentId = list.body.items.find((s: any) => s.is_current_session).id;
    const otherId = list.body.items.find((s: any) => !s.is_current_session).id;

    const self = await call(`/auth/sessions/${currentId}?user_id=me`, {
      ...internalClient,
      method: "DELETE",
      accessToken: user.accessToken,
    });
    expect(self.body.code).toBe("CANNOT_DELETE_CURRENT_SESSION");

    const stranger = await signUp();
    const foreign = await call(`/auth/sessions/${otherId}?user_id=me`, {
      ...internalClient,
      method: "DELETE",
      accessToken: stranger.accessToken,
    });
    expect(foreign.status).toBe(404);

    const ok = await call(`/auth/sessions/${otherId}?user_id=me`, { ...internalClient, method: "DELETE", accessToken: user.accessToken });
    expect(ok.body).toEqual({ success: true });
    expect((await refreshGrant(other.body.refresh_token)).status).toBe(401);
    expect((await refreshGrant(user.refreshToken)).status).toBe(200);
  });

  it("a client cannot list another user's sessions", async () => {
    const a = await signUp();
    const b = await signUp();
    const res = await call(`/auth/sessions?user_id=${b.userId}`, { ...internalClient, accessToken: a.accessToken });
    expect(res.status).toBe(403);
  });

  it("sign-out twice: the second is an invalid-token error, not a 5xx", async () => {
    const user = await signUp();
    expect((await call("/auth/sessions/current", { ...internalClient, method: "DELETE", accessToken: user.accessToken })).status).toBe(200);
    const again = await call("/auth/sessions/current", { ...internalClient, method: "DELETE", accessToken: user.accessToken });
    expect(again.status).toBe(401);
    // The ended session's access token is refused at once (an INVALID_ACCESS_TOKEN subtype: the SDKs refresh, then sign out).
    expect(again.body.code).toBe("UNPARSABLE_ACCESS_TOKEN");
  });

  it("sign-out needs a user", async () => {
    const res = await call("/auth/sessions/current", { ...internalClient, method: "DELETE" });
    expect(res.body.code).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
  });
});
