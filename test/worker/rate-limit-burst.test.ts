/**
 * Rate limits under bursts: 60 concurrent requests on one key, and at most the limit gets through.
 * A KV read-modify-write let a whole burst pass; the counters are now atomic (a D1 upsert).
 * Also the sign-in lockout: per (account, address), with a much higher per-account cap, so wrong
 * tries from elsewhere cannot lock the owner out.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { hitRateLimit } from "../../worker/services/rate-limit";
import { type CallResult, call, createProjectWithKeys, signUp, uniqueEmail } from "../helpers/api";

const CALLBACK = "http://localhost:3000/cb";
const BURST = 60;
// One pinned instant early in an hour: a burst that straddled a window boundary would be counted twice.
const pinned = () => Math.floor(Date.now() / 3_600_000) * 3_600_000 + 1_000;
const octet = () => Math.floor(Math.random() * 250) + 1;
const randomIp = () => `10.${octet()}.${octet()}.${octet()}`;

async function burst(send: (i: number) => Promise<CallResult>): Promise<{ passed: number; limited: CallResult[] }> {
  const results = await Promise.all(Array.from({ length: BURST }, (_, i) => send(i)));
  const limited = results.filter((r) => r.status === 429);
  for (const r of results) expect(r.status, r.text).toBeLessThan(500);
  for (const r of limited) expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
  return { passed: results.length - limited.length, limited };
}

describe("rate limits under a burst of 60 concurrent requests", () => {
  it("password sign-in per (account, address): at most 10 wrong passwords get through", async () => {
    const p = await createProjectWithKeys();
    const owner = await signUp(p.client);
    const ip = randomIp();
    const nowMs = pinned();
    const { passed } = await burst(() =>
      call("/auth/password/sign-in", {
        ...p.client,
        body: { email: owner.email, password: "wrong password!" },
        headers: { "cf-connecting-ip": ip },
        nowMs,
      }),
    );
    console.log(`burst sign-in per (account, address): ${passed}/${BURST} not 429`);
    expect(passed).toBeLessThanOrEqual(10);
  });

  it("password sign-up per address: at most 20 get through", async () => {
    const p = await createProjectWithKeys();
    const ip = randomIp();
    const nowMs = pinned();
    const { passed } = await burst(() =>
      call("/auth/password/sign-up", {
        ...p.client,
        body: { email: uniqueEmail("burst-up"), password: "correct horse battery" },
        headers: { "cf-connecting-ip": ip },
        nowMs,
      }),
    );
    console.log(`burst sign-up per address: ${passed}/${BURST} not 429`);
    expect(passed).toBeLessThanOrEqual(20);
  });

  it("OTP send per email: at most 5 get through", async () => {
    const p = await createProjectWithKeys({ magic_link_enabled: true });
    const email = uniqueEmail("burst-otp");
    const nowMs = pinned();
    const { passed } = await burst(() =>
      call("/auth/otp/send-sign-in-code", {
        ...p.client,
        body: { email, callback_url: CALLBACK },
        headers: { "cf-connecting-ip": randomIp() },
        nowMs,
      }),
    );
    console.log(`burst OTP send per email: ${passed}/${BURST} not 429`);
    expect(passed).toBeLessThanOrEqual(5);
  });

  it("OTP send per address: at most 20 get through", async () => {
    const p = await createProjectWithKeys({ magic_link_enabled: true });
    const ip = randomIp();
    const nowMs = pinned();
    const { passed } = await burst(() =>
      call("/auth/otp/send-sign-in-code", {
        ...p.client,
        body: { email: uniqueEmail("burst-otp-ip"), callback_url: CALLBACK },
        headers: { "cf-connecting-ip": ip },
        nowMs,
      }),
    );
    console.log(`burst OTP send per address: ${passed}/${BURST} not 429`);
    expect(passed).toBeLessThanOrEqual(20);
  });

  it("anonymous sign-up per address: at most 30 get through", async () => {
    const p = await createProjectWithKeys();
    const ip = randomIp();
    const nowMs = pinned();
    const { passed } = await burst(() =>
      call("/auth/anonymous/sign-up", { ...p.client, body: {}, headers: { "cf-connecting-ip": ip }, nowMs }),
    );
    console.log(`burst anonymous sign-up per address: ${passed}/${BURST} not 429`);
    expect(passed).toBeLessThanOrEqual(30);
  });
});

describe("sign-in lockout", () => {
  it("10 wrong tries from other addresses do not lock out the owner's address", async () => {
    const p = await createProjectWithKeys();
    const owner = await signUp(p.client);
    const nowMs = pinned();
    for (let i = 0; i < 10; i++) {
      const res = await call("/auth/password/sign-in", {
        ...p.client,
        body: { email: owner.email, password: "guessing wrong" },
        headers: { "cf-connecting-ip": randomIp() },
        nowMs,
      });
      expect(res.status).toBe(400);
    }
    // An 11th wrong try from yet another address is still only a wrong password.
    const eleventh = await call("/auth/password/sign-in", {
      ...p.client,
      body: { email: owner.email, password: "guessing wrong" },
      headers: { "cf-connecting-ip": randomIp() },
      nowMs,
    });
    expect(eleventh.status).toBe(400);
    const mine = await call("/auth/password/sign-in", {
      ...p.client,
      body: { email: owner.email, password: owner.password },
      headers: { "cf-connecting-ip": "192.0.2.77" },
      nowMs,
    });
    expect(mine.status).toBe(200);
  });

  it("one address is limited per account; the owner's address still signs in", async () => {
    const p = await createProjectWithKeys();
    const owner = await signUp(p.client);
    const attacker = randomIp();
    const nowMs = pinned();
    const tries = await Promise.all(
      Array.from({ length: 12 }, () =>
        call("/auth/password/sign-in", {
          ...p.client,
          body: { email: owner.email, password: "guessing wrong" },
          headers: { "cf-connecting-ip": attacker },
          nowMs,
        }),
      ),
    );
    expect(tries.filter((r) => r.status === 429).length).toBe(2);
    const mine = await call("/auth/password/sign-in", {
      ...p.client,
      body: { email: owner.email, password: owner.password },
      headers: { "cf-connecting-ip": randomIp() },
      nowMs,
    });
    expect(mine.status).toBe(200);
  });

  it("the per-account cap counts failures from every address (project-configured), and successes do not count", async () => {
    const p = await createProjectWithKeys({ rate_limits: { SIGN_IN_PER_EMAIL: "5/3600" } });
    const owner = await signUp(p.client);
    const nowMs = pinned();
    const signIn = (password: string) =>
      call("/auth/password/sign-in", {
        ...p.client,
        body: { email: owner.email, password },
        headers: { "cf-connecting-ip": randomIp() },
        nowMs,
      });
    // Successful sign-ins are not failures.
    for (let i = 0; i < 6; i++) expect((await signIn(owner.password)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await signIn("guessing wrong")).status).toBe(400);
    const capped = await signIn(owner.password);
    expect(capped.status).toBe(429);
    expect(Number(capped.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("rate-limit counters at rest", () => {
  it("are D1 rows keyed by a keyed hash (no raw email or IP), and expired rows are pruned", async () => {
    const scope = uniqueEmail("at-rest");
    const custom = { ...env, RATE_LIMIT_OTP_SEND_PER_EMAIL: "2/60" } as typeof env;
    const now = pinned();
    expect((await hitRateLimit(custom, "OTP_SEND_PER_EMAIL", scope, now)).ok).toBe(true);
    expect((await hitRateLimit(custom, "OTP_SEND_PER_EMAIL", scope, now)).ok).toBe(true);
    expect(await hitRateLimit(custom, "OTP_SEND_PER_EMAIL", scope, now)).toMatchObject({ ok: false, retryAfterSeconds: 59 });
    const rows = await env.DB.prepare("SELECT bucket, count FROM rate_limit_counters WHERE bucket LIKE 'OTP_SEND_PER_EMAIL:%'").all<{
      bucket: string;
      count: number;
    }>();
    expect(rows.results.length).toBeGreaterThan(0);
    expect(rows.results.some((r) => r.bucket.includes(scope) || r.bucket.includes(scope.split("@")[0]!))).toBe(false);
    // The next window restarts the same row's count.
    expect((await hitRateLimit(custom, "OTP_SEND_PER_EMAIL", scope, now + 60_000)).ok).toBe(true);
    // A row whose window has long ended goes when some other bucket opens a window.
    await env.DB.prepare("INSERT INTO rate_limit_counters (bucket, window_start, count, expires_at) VALUES ('stale:x', 0, 3, 1)").run();
    await hitRateLimit(custom, "OTP_SEND_PER_EMAIL", uniqueEmail("prune"), now);
    expect(await env.DB.prepare("SELECT 1 FROM rate_limit_counters WHERE bucket = 'stale:x'").first()).toBeNull();
  });

  it("a project's rate_limits must be valid rules and values", async () => {
    const p = await createProjectWithKeys();
    const bad = await call("/internal/projects/current", {
      ...p.admin,
      method: "PATCH",
      body: { config: { rate_limits: { SIGN_IN_PER_EMAIL: "lots" } } },
    });
    expect(bad.status).toBe(400);
    const unknown = await call("/internal/projects/current", {
      ...p.admin,
      method: "PATCH",
      body: { config: { rate_limits: { NOT_A_RULE: "1/60" } } },
    });
    expect(unknown.status).toBe(400);
  });
});
