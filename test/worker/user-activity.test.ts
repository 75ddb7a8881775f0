/**
 * GET /users/{user_id}/activity (issue 13, a Doorman extension): an end user reads their own
 * security events, newest first, with address, user agent and country; never another user's, and
 * never the owners' actions (impersonation, updates). Server and admin read any user; pages follow
 * the cursor; a replayed refresh token shows up as session.token_reused.
 */

import { USER_ACTIVITY_TYPES } from "@doorman/shared/activity-types";
import { describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../../worker/services/events";
import { type CallOptions, call, createProjectWithKeys, type SignedUp, signUp } from "../helpers/api";
import { workerFetch } from "../helpers/worker-fetch";

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;
type Item = {
  id: string;
  type: string;
  created_at_millis: number;
  ip: string | null;
  user_agent: string | null;
  country_code: string | null;
  data: Record<string, unknown> | null;
};

const as = (p: Project, user: SignedUp) => ({ ...p.client, accessToken: user.accessToken });

async function activity(o: CallOptions, userId = "me", query = "") {
  const res = await call(`/users/${userId}/activity${query}`, o);
  expect(res.status, res.text).toBe(200);
  return res.body as { items: Item[]; is_paginated: true; pagination: { next_cursor: string | null } };
}
const typesOf = async (o: CallOptions, userId = "me") => (await activity(o, userId)).items.map((i) => i.type);

describe("user activity", () => {
  it("lists only security types, every one of them a type of the event catalogue", () => {
    for (const type of USER_ACTIVITY_TYPES) expect(EVENT_TYPES).toContain(type);
    expect(USER_ACTIVITY_TYPES).not.toContain("session.impersonated");
    expect(USER_ACTIVITY_TYPES).not.toContain("user.updated");
  });

  it("a client sees its own security events, newest first, with address, device and country; owners' actions stay out", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    // A wrong password from elsewhere, then a sign-in from Germany with a browser.
    await call("/auth/password/sign-in", {
      ...p.client,
      body: { email: user.email, password: "not the password" },
      headers: { "x-real-ip": "198.51.100.9" },
    });
    const res = await workerFetch("http://localhost/api/v1/auth/password/sign-in", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-stack-project-id": p.projectId,
        "x-stack-access-type": "client",
        "x-stack-publishable-client-key": p.client.publishableClientKey,
        "x-real-ip": "203.0.113.7",
        "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
      },
      body: JSON.stringify({ email: user.email, password: user.password }),
      cf: { country: "DE" },
    } as RequestInit);
    expect(res.status).toBe(200);
    const session = (await res.json()) as { access_token: string };
    // Owners' and the back end's actions on the account are in the event log, not here.
    await call(`/users/${user.userId}`, { ...p.server, method: "PATCH", body: { display_name: "Ada" } });
    await call("/auth/sessions", { ...p.admin, body: { user_id: user.userId, is_impersonation: true } });
    const owners = await call(`/internal/events?user_id=${user.userId}`, p.admin);
    expect(owners.body.items.map((e: Item) => e.type)).toEqual(expect.arrayContaining(["session.impersonated", "user.updated"]));

    const page = await activity({ ...p.client, accessToken: session.access_token });
    expect(page.is_paginated).toBe(true);
    expect(page.items.map((i) => i.type)).toEqual(["sign_in.succeeded", "sign_in.failed", "sign_in.succeeded"]);
    const [latest, failed] = page.items;
    expect(latest).toMatchObject({
      ip: "203.0.113.7",
      country_code: "DE",
      user_agent: expect.stringContaining("Chrome/126"),
      data: expect.objectContaining({ method: "password" }),
    });
    expect(failed).toMatchObject({ ip: "198.51.100.9", data: { method: "password", reason: "EMAIL_PASSWORD_MISMATCH" } });
    expect(page.items.every((i) => (USER_ACTIVITY_TYPES as readonly string[]).includes(i.type))).toBe(true);
    expect(page.items[0]!.created_at_millis).toBeGreaterThanOrEqual(page.items[2]!.created_at_millis);
    // Their own id works as "me" does.
    expect(await typesOf(as(p, user), user.userId)).toEqual(page.items.map((i) => i.type));
  });

  it("another user's activity is refused to a client with the error of the other own-user client routes", async () => {
    const p = await createProjectWithKeys();
    const alice = await signUp(p.client);
    const bob = await signUp(p.client);
    const theirs = await call(`/users/${bob.userId}/activity`, as(p, alice));
    const other = await call(`/contact-channels?user_id=${bob.userId}`, as(p, alice));
    expect(theirs.status).toBe(403);
    expect(theirs.status).toBe(other.status);
    expect(theirs.text).toBe(other.text);
    expect(theirs.text).not.toContain(bob.userId);
    // Signed out, "me" is nobody; another project's user is not in this project.
    expect((await call("/users/me/activity", p.client)).body.code).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
    const q = await createProjectWithKeys();
    expect((await call(`/users/${alice.userId}/activity`, q.server)).body.code).toBe("USER_NOT_FOUND");
    expect((await call("/users/not-an-id/activity", p.server)).body.code).toBe("SCHEMA_ERROR");
  });

  it("server and admin read any user; pages follow the cursor without gaps or repeats", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    for (let i = 0; i < 4; i++) {
      const res = await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: user.password } });
      expect(res.status).toBe(200);
    }
    const all = await activity(p.server, user.userId);
    expect(all.items).toHaveLength(5);
    expect(all.pagination.next_cursor).toBeNull();
    expect((await activity(p.adminKey, user.userId)).items).toEqual(all.items);

    const first = await activity(p.server, user.userId, "?limit=2");
    expect(first.items).toEqual(all.items.slice(0, 2));
    const cursor = first.pagination.next_cursor!;
    const second = await activity(p.server, user.userId, `?limit=2&cursor=${encodeURIComponent(cursor)}`);
    expect(second.items).toEqual(all.items.slice(2, 4));
    const third = await activity(p.server, user.userId, `?limit=2&cursor=${encodeURIComponent(second.pagination.next_cursor!)}`);
    expect(third.items).toEqual(all.items.slice(4));
    expect(third.pagination.next_cursor).toBeNull();

    expect((await call(`/users/${user.userId}/activity?cursor=nonsense`, p.server)).body.code).toBe("SCHEMA_ERROR");
    expect((await call(`/users/${user.userId}/activity?limit=101`, p.server)).body.code).toBe("SCHEMA_ERROR");
    expect((await activity(p.server, user.userId, "?limit=100")).items).toHaveLength(5);
  });

  it("password change, sign-out and a revoked session are listed for the user", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client);
    const second = await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: user.password } });
    const changed = await call("/auth/password/update", {
      ...as(p, user),
      body: { old_password: user.password, new_password: "another password 2" },
    });
    expect(changed.status, changed.text).toBe(200);
    const third = await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: "another password 2" } });
    const sessions = await call("/auth/sessions?user_id=me", as(p, user));
    const other = sessions.body.items.find((s: { id: string; is_current_session: boolean }) => !s.is_current_session);
    expect((await call(`/auth/sessions/${other.id}`, { ...as(p, user), method: "DELETE" })).status).toBe(200);
    await call("/auth/sessions/current", { ...as(p, user), refreshToken: user.refreshToken, method: "DELETE", body: {} });
    expect(second.status).toBe(200);
    expect(third.status).toBe(200);
    expect(await typesOf(p.server, user.userId)).toEqual([
      "sign_out",
      "session.revoked",
      "sign_in.succeeded",
      "password.changed",
      "sign_in.succeeded",
      "sign_in.succeeded",
    ]);
  });

  it("a reused refresh token shows up as session.token_reused", async () => {
    const p = await createProjectWithKeys({ refresh_token_rotation: true });
    const user = await signUp(p.client);
    const rotated = await call("/auth/sessions/current/refresh", { ...p.client, refreshToken: user.refreshToken, body: {} });
    expect(rotated.body.refresh_token).toBeTruthy();
    const later = Date.now() + 60_000;
    const replay = await call("/auth/sessions/current/refresh", {
      ...p.client,
      refreshToken: user.refreshToken,
      body: {},
      nowMs: later,
      headers: { "x-real-ip": "192.0.2.66" },
    });
    expect(replay.body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    const items = (await activity(p.server, user.userId)).items;
    expect(items[0]).toMatchObject({ type: "session.token_reused", ip: "192.0.2.66" });
    expect(typeof items[0]!.data?.session_id).toBe("string");
    // The user sees it too, from a new sign-in after it.
    const again = await call("/auth/password/sign-in", {
      ...p.client,
      body: { email: user.email, password: user.password },
      nowMs: later + 1000,
    });
    const own = await typesOf({ ...p.client, accessToken: again.body.access_token });
    expect(own.slice(0, 2)).toEqual(["sign_in.succeeded", "session.token_reused"]);
  });
});
