/** User and team API keys: format, hashing at rest, validity order, types, flags, isolation, team permission. */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { crc32, parseApiKey } from "../../worker/crypto/api-key-format";
import { sha256Hex } from "../../worker/crypto/hash";
import { type CallOptions, call, createProjectWithKeys, signUp } from "../helpers/api";

const HOUR = 3600_000;
const KEY_PATTERN = /^(sk|pk)_[0-9a-hjkmnp-tv-z]{45}[0-9a-f]{32}(user|team)[0-9a-v]574ck4u7h[0-9a-f]{8}$/;
const BOTH_FLAGS = { allow_user_api_keys: true, allow_team_api_keys: true };

type Project = Awaited<ReturnType<typeof createProjectWithKeys>>;

async function project(config: Record<string, unknown> = BOTH_FLAGS) {
  return createProjectWithKeys(config);
}

async function userIn(p: Project) {
  const user = await signUp(p.client);
  return { ...user, as: { ...p.client, accessToken: user.accessToken } as CallOptions };
}

async function createUserKey(as: CallOptions, userId = "me", extra: Record<string, unknown> = {}) {
  const res = await call("/user-api-keys", { ...as, body: { user_id: userId, description: "cli", expires_at_millis: null, ...extra } });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** A team created by the server with `creatorId`, who is granted $manage_api_keys explicitly (not via defaults). */
async function teamOf(p: Project, creatorId: string): Promise<string> {
  const res = await call("/teams", { ...p.server, body: { display_name: "Acme", creator_user_id: creatorId } });
  expect(res.status, res.text).toBe(201);
  await setManageApiKeys(p, res.body.id, creatorId, true);
  return res.body.id;
}

/** Grants or revokes $manage_api_keys through the server team-permissions API. */
async function setManageApiKeys(p: Project, teamId: string, userId: string, granted: boolean) {
  const res = await call(`/team-permissions/${teamId}/${userId}/$manage_api_keys`, {
    ...p.server,
    method: granted ? "POST" : "DELETE",
    body: {},
  });
  expect(res.status, res.text).toBeLessThan(300);
}

async function check(p: Project, type: "user" | "team", apiKey: string, nowMs?: number) {
  return call(`/${type}-api-keys/check`, { ...p.server, body: { api_key: apiKey }, nowMs });
}

describe("user API keys", () => {
  it("creates a key shown once (prefix, embedded id and type, crc32), then only its last four", async () => {
    const p = await project();
    const u = await userIn(p);
    const created = await createUserKey(u.as, u.userId, { description: "laptop", expires_at_millis: Date.now() + HOUR });
    expect(created).toMatchObject({ type: "user", user_id: u.userId, description: "laptop", is_public: false });
    expect(created.manually_revoked_at_millis).toBeUndefined();
    const value: string = created.value;
    expect(value).toMatch(KEY_PATTERN);
    expect(value.startsWith("sk_")).toBe(true);
    expect(value.slice(48, 80)).toBe(created.id.replace(/-/g, ""));
    expect(value.slice(80, 84)).toBe("user");
    expect(value.slice(85, 94)).toBe("574ck4u7h");
    const crc = crc32(new TextEncoder().encode(value.slice(0, -8)));
    expect(value.slice(-8)).toBe(crc.toString(16).padStart(8, "0"));
    expect(parseApiKey(value)).toEqual({ id: created.id, type: "user", isPublic: false });
    // One flipped character breaks the checksum.
    expect(parseApiKey(`${value.slice(0, 10)}${value[10] === "a" ? "b" : "a"}${value.slice(11)}`)).toBeNull();

    const read = await call(`/user-api-keys/${created.id}?user_id=${u.userId}`, u.as);
    expect(read.status).toBe(200);
    expect(read.body.value).toEqual({ last_four: value.slice(-4) });
    const list = await call("/user-api-keys?user_id=me", u.as);
    expect(list.body).toEqual({ items: [read.body], is_paginated: false });
  });

  it("stores only the SHA-256 of the key", async () => {
    const p = await project();
    const u = await userIn(p);
    const created = await createUserKey(u.as);
    const rows = await env.DB.prepare("SELECT * FROM api_keys WHERE id = ?").bind(created.id).all();
    expect(rows.results).toHaveLength(1);
    const row = rows.results[0] as Record<string, unknown>;
    expect(row.key_hash).toBe(await sha256Hex(created.value));
    for (const column of Object.values(row)) expect(String(column)).not.toContain(created.value.slice(3, 48));
  });

  it("public keys get the pk_ prefix and the public flag", async () => {
    const p = await project();
    const u = await userIn(p);
    const created = await createUserKey(u.as, "me", { is_public: true });
    expect(created.is_public).toBe(true);
    expect(created.value.startsWith("pk_")).toBe(true);
    expect(parseApiKey(created.value)?.isPublic).toBe(true);
    expect((await check(p, "user", created.value)).body.is_public).toBe(true);
  });

  it("check: valid, expired (via the clock), revoked, expired before revoked, not found", async () => {
    const p = await project();
    const u = await userIn(p);
    const now = Date.now();
    const key = await createUserKey(u.as, "me", { expires_at_millis: now + HOUR });
    const ok = await check(p, "user", key.value, now);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: key.id, user_id: u.userId, type: "user", value: { last_four: key.value.slice(-4) } });
    const expired = await check(p, "user", key.value, now + 2 * HOUR);
    expect([expired.status, expired.body.code]).toEqual([401, "API_KEY_EXPIRED"]);

    const revoked = await call(`/user-api-keys/${key.id}?user_id=me`, {
      ...u.as,
      method: "PATCH",
      body: { revoked: true },
      nowMs: now + 1000,
    });
    expect(revoked.body.manually_revoked_at_millis).toBe(now + 1000);
    expect((await check(p, "user", key.value, now + 2000)).body.code).toBe("API_KEY_REVOKED");
    // Expired and revoked: expiry is reported first.
    expect((await check(p, "user", key.value, now + 2 * HOUR)).body.code).toBe("API_KEY_EXPIRED");

    const missing = await check(p, "user", `${key.value.slice(0, -8)}00000000`);
    expect([missing.status, missing.body.code]).toEqual([404, "API_KEY_NOT_FOUND"]);
    expect((await check(p, "user", "not-a-key")).body.code).toBe("API_KEY_NOT_FOUND");
    // The check is for back ends only.
    expect((await call("/user-api-keys/check", { ...u.as, body: { api_key: key.value } })).body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
  });

  it("revoking is one-way: the first time is kept and revoked:false is a schema error", async () => {
    const p = await project();
    const u = await userIn(p);
    const key = await createUserKey(u.as);
    const path = `/user-api-keys/${key.id}?user_id=me`;
    const first = await call(path, { ...u.as, method: "PATCH", body: { revoked: true }, nowMs: 1_000_000 });
    const again = await call(path, { ...u.as, method: "PATCH", body: { revoked: true, description: "renamed" }, nowMs: 2_000_000 });
    expect(first.body.manually_revoked_at_millis).toBe(1_000_000);
    expect(again.body).toMatchObject({ manually_revoked_at_millis: 1_000_000, description: "renamed" });
    const undo = await call(path, { ...u.as, method: "PATCH", body: { revoked: false } });
    expect([undo.status, undo.body.code]).toEqual([400, "SCHEMA_ERROR"]);
    expect(undo.body.details.message).toContain("revoked can only be set to true");
  });

  it("rejects user_id together with team_id, and a missing expires_at_millis", async () => {
    const p = await project();
    const u = await userIn(p);
    const both = await call("/user-api-keys", {
      ...p.server,
      body: { user_id: u.userId, team_id: crypto.randomUUID(), description: "x", expires_at_millis: null },
    });
    expect([both.status, both.body.code]).toEqual([400, "SCHEMA_ERROR"]);
    expect(both.body.details.message).toContain("Cannot provide both user_id and team_id");
    const bothTeam = await call("/team-api-keys", {
      ...p.server,
      body: { user_id: u.userId, team_id: crypto.randomUUID(), description: "x", expires_at_millis: null },
    });
    expect(bothTeam.body.code).toBe("SCHEMA_ERROR");
    const listBoth = await call(`/user-api-keys?user_id=${u.userId}&team_id=${crypto.randomUUID()}`, p.server);
    expect(listBoth.body.code).toBe("SCHEMA_ERROR");
    const noExpiry = await call("/user-api-keys", { ...u.as, body: { user_id: "me", description: "x" } });
    expect(noExpiry.body.code).toBe("SCHEMA_ERROR");
  });

  it("is gated by allow_user_api_keys / allow_team_api_keys", async () => {
    const p = await project({ allow_user_api_keys: false, allow_team_api_keys: false });
    const u = await userIn(p);
    const res = await call("/user-api-keys", { ...u.as, body: { user_id: "me", description: "x", expires_at_millis: null } });
    expect([res.status, res.text]).toEqual([400, "User API keys are not enabled for this project."]);
    expect((await call("/user-api-keys?user_id=me", u.as)).status).toBe(400);
    const team = await teamOf(p, u.userId);
    const teamRes = await call(`/team-api-keys?team_id=${team}`, u.as);
    expect([teamRes.status, teamRes.text]).toEqual([400, "Team API keys are not enabled for this project."]);
    // Enabling the flag (admin) opens the endpoints.
    await call("/internal/projects/current", { ...p.admin, method: "PATCH", body: { config: { allow_user_api_keys: true } } });
    expect((await call("/user-api-keys?user_id=me", u.as)).status).toBe(200);
  });

  it("a client sees and changes only its own keys; the server any user's", async () => {
    const p = await project();
    const a = await userIn(p);
    const b = await userIn(p);
    const keyA = await createUserKey(a.as);
    expect((await call(`/user-api-keys?user_id=${a.userId}`, b.as)).status).toBe(403);
    expect((await call("/user-api-keys", { ...b.as, body: { user_id: a.userId, description: "x", expires_at_millis: null } })).status).toBe(
      403,
    );
    expect((await call(`/user-api-keys/${keyA.id}`, b.as)).body.code).toBe("API_KEY_NOT_FOUND");
    const patch = await call(`/user-api-keys/${keyA.id}`, { ...b.as, method: "PATCH", body: { revoked: true } });
    expect(patch.body.code).toBe("API_KEY_NOT_FOUND");
    expect((await check(p, "user", keyA.value)).status).toBe(200);
    expect((await call("/user-api-keys?user_id=me", b.as)).body.items).toEqual([]);
    // A client without a user cannot manage keys.
    expect((await call("/user-api-keys?user_id=me", p.client)).body.code).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");

    const byServer = await createUserKey(p.server, b.userId, { description: "issued by backend" });
    expect(byServer.user_id).toBe(b.userId);
    expect((await call(`/user-api-keys?user_id=${b.userId}`, p.server)).body.items.map((k: { id: string }) => k.id)).toEqual([byServer.id]);
    const unknownUser = await call("/user-api-keys", {
      ...p.server,
      body: { user_id: crypto.randomUUID(), description: "x", expires_at_millis: null },
    });
    expect(unknownUser.body.code).toBe("USER_NOT_FOUND");
    // Named owner on a read must match the key.
    expect((await call(`/user-api-keys/${keyA.id}?user_id=${b.userId}`, p.server)).body.code).toBe("API_KEY_NOT_FOUND");
  });

  it("a key of project A checked in project B is not found", async () => {
    const a = await project();
    const b = await project();
    const u = await userIn(a);
    const key = await createUserKey(u.as);
    expect((await check(b, "user", key.value)).body.code).toBe("API_KEY_NOT_FOUND");
    expect((await call(`/user-api-keys/${key.id}?user_id=${u.userId}`, b.server)).body.code).toBe("API_KEY_NOT_FOUND");
    expect((await check(a, "user", key.value)).status).toBe(200);
  });
});

describe("team API keys", () => {
  it("a team admin creates, lists, reads and revokes team keys; checks are typed", async () => {
    const p = await project();
    const u = await userIn(p);
    const team = await teamOf(p, u.userId);
    const res = await call("/team-api-keys", { ...u.as, body: { team_id: team, description: "deploy bot", expires_at_millis: null } });
    expect(res.status, res.text).toBe(200);
    const key = res.body;
    expect(key).toMatchObject({ type: "team", team_id: team, description: "deploy bot", is_public: false });
    expect(key.user_id).toBeUndefined();
    expect(key.value.slice(80, 84)).toBe("team");
    expect(parseApiKey(key.value)).toEqual({ id: key.id, type: "team", isPublic: false });

    const list = await call(`/team-api-keys?team_id=${team}`, u.as);
    expect(list.body.items).toEqual([{ ...key, value: { last_four: key.value.slice(-4) } }]);
    expect((await call(`/team-api-keys/${key.id}?team_id=${team}`, u.as)).body.id).toBe(key.id);
    // The team endpoint does not serve user keys, nor the reverse.
    const userKey = await createUserKey(u.as);
    expect((await call(`/team-api-keys/${userKey.id}`, p.server)).body.code).toBe("API_KEY_NOT_FOUND");
    expect((await call(`/user-api-keys/${key.id}`, p.server)).body.code).toBe("API_KEY_NOT_FOUND");

    expect((await check(p, "team", key.value)).body).toMatchObject({ id: key.id, team_id: team });
    const wrong = await check(p, "user", key.value);
    expect([wrong.status, wrong.body.code, wrong.body.details]).toEqual([
      400,
      "WRONG_API_KEY_TYPE",
      { expected_type: "user", actual_type: "team" },
    ]);
    const reverse = await check(p, "team", userKey.value);
    expect(reverse.body.details).toEqual({ expected_type: "team", actual_type: "user" });

    await call(`/team-api-keys/${key.id}?team_id=${team}`, { ...u.as, method: "PATCH", body: { revoked: true } });
    expect((await check(p, "team", key.value)).body.code).toBe("API_KEY_REVOKED");
  });

  it("clients need $manage_api_keys in the team; members without it and outsiders are refused", async () => {
    const p = await project();
    const admin = await userIn(p);
    const member = await userIn(p);
    const outsider = await userIn(p);
    const team = await teamOf(p, admin.userId);
    expect((await call(`/team-memberships/${team}/${member.userId}`, { ...p.server, method: "POST", body: {} })).status).toBeLessThan(300);
    const key = (await call("/team-api-keys", { ...admin.as, body: { team_id: team, description: "ci", expires_at_millis: null } })).body;

    for (const who of [member, outsider]) {
      const list = await call(`/team-api-keys?team_id=${team}`, who.as);
      expect([list.status, list.body.code]).toEqual([404, "API_KEY_NOT_FOUND"]);
      const create = await call("/team-api-keys", { ...who.as, body: { team_id: team, description: "x", expires_at_millis: null } });
      expect(create.body.code).toBe("API_KEY_NOT_FOUND");
      expect((await call(`/team-api-keys/${key.id}`, who.as)).body.code).toBe("API_KEY_NOT_FOUND");
      const revoke = await call(`/team-api-keys/${key.id}`, { ...who.as, method: "PATCH", body: { revoked: true } });
      expect(revoke.body.code).toBe("API_KEY_NOT_FOUND");
    }
    // An unknown team looks the same as a team one cannot manage.
    expect((await call(`/team-api-keys?team_id=${crypto.randomUUID()}`, member.as)).body.code).toBe("API_KEY_NOT_FOUND");

    // Granting $manage_api_keys (server) lets the member in; revoking it shuts them out again.
    await setManageApiKeys(p, team, member.userId, true);
    expect((await call(`/team-api-keys?team_id=${team}`, member.as)).body.items.map((k: { id: string }) => k.id)).toEqual([key.id]);
    await setManageApiKeys(p, team, member.userId, false);
    expect((await call(`/team-api-keys?team_id=${team}`, member.as)).body.code).toBe("API_KEY_NOT_FOUND");
  });

  it("keys of another team or project stay invisible; creating for an unknown team is TEAM_NOT_FOUND", async () => {
    const p = await project();
    const a = await userIn(p);
    const b = await userIn(p);
    const teamA = await teamOf(p, a.userId);
    const teamB = await teamOf(p, b.userId);
    const keyA = (await call("/team-api-keys", { ...a.as, body: { team_id: teamA, description: "a", expires_at_millis: null } })).body;
    // b administers team B, not team A.
    expect((await call(`/team-api-keys?team_id=${teamA}`, b.as)).body.code).toBe("API_KEY_NOT_FOUND");
    expect((await call(`/team-api-keys/${keyA.id}?team_id=${teamB}`, b.as)).body.code).toBe("API_KEY_NOT_FOUND");
    expect((await call(`/team-api-keys?team_id=${teamB}`, b.as)).body.items).toEqual([]);
    const unknown = await call("/team-api-keys", {
      ...p.server,
      body: { team_id: crypto.randomUUID(), description: "x", expires_at_millis: null },
    });
    expect([unknown.status, unknown.body.code]).toEqual([404, "TEAM_NOT_FOUND"]);
    const other = await project();
    expect((await check(other, "team", keyA.value)).body.code).toBe("API_KEY_NOT_FOUND");
    const foreignTeam = await call("/team-api-keys", {
      ...other.server,
      body: { team_id: teamA, description: "x", expires_at_millis: null },
    });
    expect(foreignTeam.body.code).toBe("TEAM_NOT_FOUND");
  });
});

describe("credential scanning revoke", () => {
  it("revokes a leaked secret key by value; public keys cannot be revoked this way", async () => {
    const p = await project();
    const u = await userIn(p);
    const secret = await createUserKey(u.as);
    const pub = await createUserKey(u.as, "me", { is_public: true });
    const revoke = (apiKey: string) => call("/integrations/credential-scanning/revoke", { body: { api_key: apiKey } });
    const res = await revoke(secret.value);
    expect([res.status, res.body]).toEqual([200, { success: true }]);
    expect((await check(p, "user", secret.value)).body.code).toBe("API_KEY_REVOKED");
    expect((await revoke(secret.value)).status).toBe(200); // already revoked: a no-op
    const pubRes = await revoke(pub.value);
    expect([pubRes.status, pubRes.body.code]).toEqual([400, "PUBLIC_API_KEY_CANNOT_BE_REVOKED"]);
    expect((await check(p, "user", pub.value)).status).toBe(200);
    expect((await revoke(`${secret.value.slice(0, -8)}ffffffff`)).body.code).toBe("API_KEY_NOT_FOUND");
  });
});
