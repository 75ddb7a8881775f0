/** Rate limits (KV): per email and per IP, 429 with Retry-After, windows that move with the clock. */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { hitRateLimit, ruleLimit } from "../../worker/services/rate-limit";
import { call, createProjectWithKeys, uniqueEmail } from "../helpers/api";

const CALLBACK = "http://localhost:3000/cb";
// Every request of a test runs at one pinned instant early in an hour (and so in every shorter
// window): a test that straddled a fixed-window boundary would see its count reset.
const pinned = () => Math.floor(Date.now() / 3_600_000) * 3_600_000 + 1_000;

describe("rate limits", () => {
  it("limit OTP sends per email: the 6th within 10 minutes is a 429 with Retry-After", async () => {
    const p = await createProjectWithKeys({ magic_link_enabled: true });
    const email = uniqueEmail("flood");
    const nowMs = pinned();
    for (let i = 0; i < 5; i++)
      expect((await call("/auth/otp/send-sign-in-code", { ...p.client, body: { email, callback_url: CALLBACK }, nowMs })).status).toBe(200);
    const limited = await call("/auth/otp/send-sign-in-code", { ...p.client, body: { email, callback_url: CALLBACK }, nowMs });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another email is not affected.
    expect(
      (await call("/auth/otp/send-sign-in-code", { ...p.client, body: { email: uniqueEmail(), callback_url: CALLBACK }, nowMs })).status,
    ).toBe(200);
    // The next window opens (clock moved, not slept).
    const later = await call("/auth/otp/send-sign-in-code", {
      ...p.client,
      body: { email, callback_url: CALLBACK },
      nowMs: nowMs + 11 * 60_000,
    });
    expect(later.status).toBe(200);
  });

  it("limit password sign-ins per client IP", async () => {
    const p = await createProjectWithKeys();
    const ip = `198.51.100.${Math.floor(Math.random() * 200) + 1}`;
    const nowMs = pinned();
    const attempt = () =>
      call("/auth/password/sign-in", {
        ...p.client,
        body: { email: uniqueEmail(), password: "whatever123" },
        headers: { "cf-connecting-ip": ip },
        nowMs,
      });
    for (let i = 0; i < 30; i++) expect((await attempt()).status).toBe(400);
    const limited = await attempt();
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBeTruthy();
  });

  it("limit the unauthenticated leaked-key revoke per client IP", async () => {
    const ip = `203.0.113.${Math.floor(Math.random() * 200) + 1}`;
    const nowMs = pinned();
    const attempt = () =>
      call("/integrations/credential-scanning/revoke", {
        body: { api_key: "sk_not-a-real-key" },
        headers: { "cf-connecting-ip": ip },
        nowMs,
      });
    for (let i = 0; i < 60; i++) expect((await attempt()).status).toBe(404);
    const limited = await attempt();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("limit purchase-code validation per client IP (a small override: 3 per minute)", async () => {
    const ip = `192.0.2.${Math.floor(Math.random() * 200) + 1}`;
    const nowMs = pinned();
    const limitedEnv = { ...env, RATE_LIMIT_PURCHASE_CODE_VALIDATE_PER_IP: "3/60" };
    const attempt = async () => {
      const ctx = createExecutionContext();
      const res = await worker.fetch(
        new Request("http://localhost/api/v1/payments/purchases/validate-code", {
          method: "POST",
          headers: { "content-type": "application/json", "cf-connecting-ip": ip, "x-doorman-test-now": String(nowMs) },
          body: JSON.stringify({ full_code: "not-a-code_guess" }),
        }) as Request<unknown, IncomingRequestCfProperties>,
        limitedEnv as never,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return res;
    };
    for (let i = 0; i < 3; i++) expect((await attempt()).status).not.toBe(429);
    const limited = await attempt();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("limit sign-ups per email", async () => {
    const p = await createProjectWithKeys();
    const email = uniqueEmail("signup-flood");
    const nowMs = pinned();
    for (let i = 0; i < 5; i++) await call("/auth/password/sign-up", { ...p.client, body: { email, password: "x" }, nowMs });
    const limited = await call("/auth/password/sign-up", { ...p.client, body: { email, password: "long enough pw" }, nowMs });
    expect(limited.status).toBe(429);
  });

  it("with override-error-status the 429 becomes 200 and keeps Retry-After (what the Stack SDK reads)", async () => {
    const p = await createProjectWithKeys({ magic_link_enabled: true });
    const email = uniqueEmail("override");
    const nowMs = pinned();
    for (let i = 0; i < 5; i++) await call("/auth/otp/send-sign-in-code", { ...p.client, body: { email, callback_url: CALLBACK }, nowMs });
    const res = await call("/auth/otp/send-sign-in-code", {
      ...p.client,
      body: { email, callback_url: CALLBACK },
      headers: { "x-stack-override-error-status": "true" },
      nowMs,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-stack-actual-status")).toBe("429");
    expect(res.headers.get("retry-after")).toBeTruthy();
  });

  it("rules are configurable and can be switched off", () => {
    expect(ruleLimit(env, "OTP_SEND_PER_EMAIL")).toEqual({ count: 5, seconds: 600 });
    expect(ruleLimit({ ...env, RATE_LIMIT_OTP_SEND_PER_EMAIL: "2/30" } as typeof env, "OTP_SEND_PER_EMAIL")).toEqual({
      count: 2,
      seconds: 30,
    });
    expect(ruleLimit({ ...env, RATE_LIMIT_OTP_SEND_PER_EMAIL: "0" } as typeof env, "OTP_SEND_PER_EMAIL")).toBeNull();
  });

  it("counts in fixed windows keyed by a hash (no raw emails in KV)", async () => {
    const scope = uniqueEmail("kv");
    const now = pinned();
    const custom = { ...env, RATE_LIMIT_OTP_SEND_PER_EMAIL: "2/60" } as typeof env;
    expect((await hitRateLimit(custom, "OTP_SEND_PER_EMAIL", scope, now)).ok).toBe(true);
    expect((await hitRateLimit(custom, "OTP_SEND_PER_EMAIL", scope, now)).ok).toBe(true);
    expect(await hitRateLimit(custom, "OTP_SEND_PER_EMAIL", scope, now)).toMatchObject({ ok: false });
    const keys = await env.KV.list({ prefix: "rl:OTP_SEND_PER_EMAIL:" });
    expect(keys.keys.some((k) => k.name.includes(scope))).toBe(false);
  });
});
