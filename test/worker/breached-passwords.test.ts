/**
 * Breached passwords (issue 29): every new password (sign-up, the anonymous upgrade, set, update, reset,
 * the server API's create and update) is checked against the local range API (test/pwned-range-fixture.mjs,
 * PWNED_PASSWORDS_URL in vitest.config.ts). Found = PASSWORD_BREACHED and nothing changes; only 5 hex
 * characters leave; a range API that is down, hangs or answers nonsense fails open with an event; a
 * project that turned it off makes no call at all; a burst of 60 breached sign-ups creates no one.
 */
import { env } from "cloudflare:test";
import { KnownError } from "@doorman/shared/known-errors";
import { describe, expect, inject, it } from "vitest";
import { errorsFromResult } from "../../sdk/src/react/components/credential-errors";
import { DEFAULT_PWNED_PASSWORDS_URL, readConfig } from "../../worker/config";
import { findSuffix, sha1Hex } from "../../worker/services/protection/breached-passwords";
import { type CallResult, call, createProjectWithKeys, projectWithConfig, signUp, uniqueEmail } from "../helpers/api";
import { withHealthPolls } from "../helpers/health";
import { codeFrom, sinkEmailConfig, waitForMail } from "../helpers/mail";
import { sha1Hex as nodeSha1Hex, PWNED_FIXTURE, type PwnedRangeRequest } from "../pwned-range-fixture.mjs";

const BREACHED = PWNED_FIXTURE.BREACHED[0]!;
/** Used only by the "turned off" test below, so the fixture seeing its range means a call was made. */
const BREACHED_UNASKED = PWNED_FIXTURE.BREACHED[2]!;
const GOOD = "quiet lantern orbit 42";
const MESSAGE = "This password has appeared in a data breach; choose another.";
const CALLBACK = "http://localhost:3000/handler/password-reset";

const randomIp = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
const seen = async (): Promise<PwnedRangeRequest[]> =>
  (await (await fetch(`http://127.0.0.1:${inject("pwnedPort")}/control/seen`)).json()) as PwnedRangeRequest[];
const rangePath = (password: string) => `/range/${nodeSha1Hex(password).slice(0, 5)}`;

function expectBreached(res: CallResult) {
  expect([res.status, res.headers.get("x-stack-known-error")], res.text).toEqual([400, "PASSWORD_BREACHED"]);
  expect(res.body).toEqual({ code: "PASSWORD_BREACHED", error: MESSAGE });
}

type EventRow = { type: string; user_id: string | null; data: string | null };
async function breachEvents(projectId: string): Promise<EventRow[]> {
  const rows = await env.DB.prepare("SELECT type, user_id, data FROM events WHERE project_id = ? AND type = ? ORDER BY created_at, rowid")
    .bind(projectId, "password.breach_check_failed")
    .all<EventRow>();
  return rows.results;
}

async function userCountOf(projectId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM users WHERE project_id = ?").bind(projectId).first<{ n: number }>();
  return row?.n ?? 0;
}

describe("the hash and the range answer", () => {
  it("SHA-1 is upper-case hex of the NFKC password, as the fixture (and the real corpus) computes it", async () => {
    expect(await sha1Hex("password")).toBe("5BAA61E4C9B93F3F0682250B6CF8331B7EE68FD8");
    for (const password of [BREACHED, GOOD, "ﬁnal ｐａｓｓ word"]) expect(await sha1Hex(password)).toBe(nodeSha1Hex(password));
  });

  it("a suffix matches only with a count above 0; padding lines never match; a non-range answer is null", () => {
    const suffix = "1E4C9B93F3F0682250B6CF8331B7EE68FD8";
    expect(findSuffix(`0018A45C4D1DEF81644B54AB7F969B88D65:1\r\n${suffix}:10434004\r\n`, suffix)).toBe(true);
    expect(findSuffix(`${suffix.toLowerCase()}:2`, suffix)).toBe(true);
    expect(findSuffix(`0018A45C4D1DEF81644B54AB7F969B88D65:1\r\n${suffix}:0\r\n`, suffix)).toBe(false);
    expect(findSuffix("0018A45C4D1DEF81644B54AB7F969B88D65:1", suffix)).toBe(false);
    expect(findSuffix("", suffix)).toBeNull();
    expect(findSuffix("<!doctype html><title>Just a moment...</title>", suffix)).toBeNull();
    expect(findSuffix(`0018A45C4D1DEF81644B54AB7F969B88D65:1\r\n${suffix}:many`, suffix)).toBeNull();
    // Only a whole line matches: the suffix inside another line's text is not a hit.
    expect(findSuffix(`0018A45C4D1DEF81644B54AB7F969B88D65:1\r\nX${suffix}:5`, suffix)).toBe(false);
  });
});

describe("PWNED_PASSWORDS_URL", () => {
  const production = { SERVER_SECRET: "a-production-secret-of-enough-length-0123456789" };
  it('production: the public API unless set; "off" turns it off; not a URL is refused. Development: off unless set', () => {
    expect(readConfig({ ...production }).pwnedPasswordsUrl).toBe(DEFAULT_PWNED_PASSWORDS_URL);
    expect(readConfig({ ...production, PWNED_PASSWORDS_URL: "off" }).pwnedPasswordsUrl).toBeNull();
    const mirror = "https://pwned.example.com/range/";
    expect(readConfig({ ...production, PWNED_PASSWORDS_URL: mirror }).pwnedPasswordsUrl).toBe(mirror);
    expect(() => readConfig({ ...production, PWNED_PASSWORDS_URL: "ftp://x" })).toThrow(/PWNED_PASSWORDS_URL must be an http\(s\) URL/);
    expect(readConfig({ ENVIRONMENT: "development" }).pwnedPasswordsUrl).toBeNull();
    expect(readConfig({ ENVIRONMENT: "development", PWNED_PASSWORDS_URL: "http://127.0.0.1:9/range/" }).pwnedPasswordsUrl).toBe(
      "http://127.0.0.1:9/range/",
    );
  });
});

describe("a breached password is refused everywhere a password is chosen, and nothing changes", () => {
  it("sign-up: PASSWORD_BREACHED, no user; a good password then signs the address up", async () => {
    const p = await createProjectWithKeys();
    const email = uniqueEmail("breach");
    expectBreached(await call("/auth/password/sign-up", { ...p.client, body: { email, password: BREACHED } }));
    const users = await call(`/users?query=${encodeURIComponent(email)}`, p.server);
    expect(users.body.items).toEqual([]);
    expect((await call("/auth/password/sign-up", { ...p.client, body: { email, password: GOOD } })).status).toBe(200);
  });

  it("an anonymous user's upgrade is refused and the user stays anonymous", async () => {
    const p = await createProjectWithKeys({ anonymous_sign_up_enabled: true });
    const anon = await call("/auth/anonymous/sign-up", { ...p.client, body: {} });
    expect(anon.status, anon.text).toBe(200);
    const upgrade = await call("/auth/password/sign-up", {
      ...p.client,
      accessToken: anon.body.access_token,
      allowAnonymous: true,
      body: { email: uniqueEmail("anon"), password: BREACHED },
    });
    expectBreached(upgrade);
    const user = await call(`/users/${anon.body.user_id}`, p.server);
    expect([user.body.is_anonymous, user.body.has_password, user.body.primary_email]).toEqual([true, false, null]);
  });

  it("set and update: refused, the user's password is unchanged", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client, uniqueEmail("update"), GOOD);
    expectBreached(
      await call("/auth/password/update", {
        ...p.client,
        accessToken: user.accessToken,
        body: { old_password: GOOD, new_password: BREACHED },
      }),
    );
    expect((await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: GOOD } })).status).toBe(200);
    expect((await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: BREACHED } })).status).toBe(400);

    const created = await call("/users", { ...p.server, body: { primary_email: uniqueEmail("nopw") } });
    const session = await call("/auth/sessions", { ...p.server, body: { user_id: created.body.id } });
    expectBreached(await call("/auth/password/set", { ...p.client, accessToken: session.body.access_token, body: { password: BREACHED } }));
    expect((await call(`/users/${created.body.id}`, p.server)).body.has_password).toBe(false);
  });

  it("reset: refused without using the link up; the link then takes a good password", async () => {
    const p = await createProjectWithKeys({ email_config: sinkEmailConfig() });
    const user = await signUp(p.client, uniqueEmail("reset"), GOOD);
    await call("/auth/password/send-reset-code", { ...p.client, body: { email: user.email, callback_url: CALLBACK } });
    const code = codeFrom((await waitForMail(user.email))[0]!);
    expectBreached(await call("/auth/password/reset", { ...p.client, body: { code, password: BREACHED } }));
    expect((await call("/auth/password/reset/check-code", { ...p.client, body: { code } })).body).toEqual({ is_code_valid: true });
    expect((await call("/auth/password/sign-in", { ...p.client, body: { email: user.email, password: GOOD } })).status).toBe(200);
    expect((await call("/auth/password/reset", { ...p.client, body: { code, password: "another quiet lantern 7" } })).body).toEqual({
      success: true,
    });
  });

  it("the server API's create and update are checked too; an imported hash is not", async () => {
    const p = await createProjectWithKeys();
    expectBreached(await call("/users", { ...p.server, body: { primary_email: uniqueEmail(), password: BREACHED } }));
    const created = await call("/users", { ...p.server, body: { primary_email: uniqueEmail(), password: GOOD } });
    expect(created.status).toBe(201);
    expectBreached(await call(`/users/${created.body.id}`, { ...p.server, method: "PATCH", body: { password: BREACHED } }));
    const user = await signUp(p.client, uniqueEmail("me"), GOOD);
    expectBreached(await call("/users/me", { ...p.server, method: "PATCH", accessToken: user.accessToken, body: { password: BREACHED } }));
    const hash = "$2a$10$CwTycUXWue0Thq9StjUM0uJ8.xG5N0fTgXQXf5tXbP5w5wQ2cJXnq";
    expect((await call("/users", { ...p.server, body: { primary_email: uniqueEmail(), password_hash: hash } })).status).toBe(201);
  });

  it("the SDK rebuilds PASSWORD_BREACHED (in the PASSWORD family) and the forms put it on the password field", async () => {
    const p = await createProjectWithKeys();
    const res = await call("/auth/password/sign-up", { ...p.client, body: { email: uniqueEmail(), password: BREACHED } });
    const error = new KnownError(res.body.code, res.body.details, res.body.error);
    expect([error.status, error.message, error.is("PASSWORD_REQUIREMENTS_NOT_MET")]).toEqual([400, MESSAGE, true]);
    expect(errorsFromResult(error)).toEqual({ password: MESSAGE });
  });
});

describe("what passes and what leaves the worker", () => {
  it("a password not in the range passes, and so does one listed only as padding (count 0)", async () => {
    const p = await createProjectWithKeys();
    expect((await call("/auth/password/sign-up", { ...p.client, body: { email: uniqueEmail(), password: GOOD } })).status).toBe(200);
    const padded = await call("/auth/password/sign-up", {
      ...p.client,
      body: { email: uniqueEmail(), password: PWNED_FIXTURE.PADDING_ONLY },
    });
    expect(padded.status, padded.text).toBe(200);
    expect(await breachEvents(p.projectId)).toEqual([]);
  });

  it("only the first 5 hex characters of the SHA-1 are sent, with Add-Padding: true; one call per sign-up", async () => {
    const p = await createProjectWithKeys();
    const before = (await seen()).length;
    expectBreached(await call("/auth/password/sign-up", { ...p.client, body: { email: uniqueEmail(), password: BREACHED } }));
    const all = await seen();
    const hash = nodeSha1Hex(BREACHED);
    expect(all.slice(before).filter((r) => r.path === rangePath(BREACHED))).toEqual([
      { path: `/range/${hash.slice(0, 5)}`, padding: "true" },
    ]);
    // Every request any test made: a 5-character range, never more of a hash, never a password.
    for (const request of all) expect(request.path).toMatch(/^\/range\/[0-9A-F]{5}$/);
    expect(JSON.stringify(all)).not.toContain(hash.slice(5, 15));
  });

  it("a project that turns it off makes no call at all", async () => {
    const p = await projectWithConfig({ "doorman.protection.breachedPasswords.enabled": false });
    const res = await call("/auth/password/sign-up", { ...p.client, body: { email: uniqueEmail(), password: BREACHED_UNASKED } });
    expect(res.status, res.text).toBe(200);
    expect((await seen()).map((r) => r.path)).not.toContain(rangePath(BREACHED_UNASKED));
  });
});

describe("the range API fails open, and the failure is an event", () => {
  const cases = [
    { name: "down (503)", password: PWNED_FIXTURE.DOWN, data: { reason: "status", status: 503 } },
    { name: "hanging (the 2 s first-byte limit)", password: PWNED_FIXTURE.HANG, data: { reason: "timeout" } },
    { name: "answering HTML", password: PWNED_FIXTURE.GARBAGE, data: { reason: "unreadable", status: 200 } },
  ];
  for (const c of cases) {
    it(`${c.name}: the sign-up goes through, one event with the reason and no secret`, async () => {
      const p = await createProjectWithKeys();
      const started = Date.now();
      // The isolate other projects share keeps answering /health while the range API fails or hangs.
      const { result: res, failures } = await withHealthPolls(() =>
        call("/auth/password/sign-up", { ...p.client, body: { email: uniqueEmail("open"), password: c.password } }),
      );
      expect(failures).toBe(0);
      expect(res.status, res.text).toBe(200);
      expect(Date.now() - started).toBeLessThan(10_000);
      const events = await breachEvents(p.projectId);
      // One per sign-up, though the sign-up and the user creation both ask (the request's answer is reused).
      expect(events).toEqual([{ type: "password.breach_check_failed", user_id: null, data: JSON.stringify(c.data) }]);
      const hash = nodeSha1Hex(c.password);
      for (const secret of [c.password, hash, hash.slice(5)]) expect(JSON.stringify(events)).not.toContain(secret);
    });
  }

  it("a failed check on a password change names the user", async () => {
    const p = await createProjectWithKeys();
    const user = await signUp(p.client, uniqueEmail("change"), GOOD);
    const changed = await call("/auth/password/update", {
      ...p.client,
      accessToken: user.accessToken,
      body: { old_password: GOOD, new_password: PWNED_FIXTURE.DOWN },
    });
    expect(changed.body).toEqual({ success: true });
    expect(await breachEvents(p.projectId)).toEqual([
      { type: "password.breach_check_failed", user_id: user.userId, data: JSON.stringify({ reason: "status", status: 503 }) },
    ]);
  });
});

describe("burst", () => {
  it("60 concurrent sign-ups with a breached password are all refused and none creates a user", async () => {
    const p = await createProjectWithKeys();
    const before = await userCountOf(p.projectId);
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        call("/auth/password/sign-up", {
          ...p.client,
          headers: { "cf-connecting-ip": randomIp() },
          body: { email: uniqueEmail(`burst${i}`), password: BREACHED },
        }),
      ),
    );
    expect(results.map((r) => r.headers.get("x-stack-known-error"))).toEqual(Array(60).fill("PASSWORD_BREACHED"));
    expect(await userCountOf(p.projectId)).toBe(before);
  });
});
