/**
 * The SDK and 429: it waits a short Retry-After and retries (also when the 429 arrives as 200 +
 * x-stack-actual-status, which the SDK asks for), and gives a long one back as RateLimitedError, which
 * the pages show as "Too many attempts, try again in N s" rather than a connection error.
 */

import { DEV_PUBLISHABLE_CLIENT_KEY } from "@doorman/shared/constants";
import { describe, expect, it } from "vitest";
import { RateLimitedError, StackClientApp } from "../../sdk/src";
import { HttpClient } from "../../sdk/src/interface/http";
import { errorsFromResult } from "../../sdk/src/react/components/credential-errors";
import { uniqueEmail } from "../helpers/api";
import { workerFetch } from "../helpers/worker-fetch";

function scripted(responses: Response[]) {
  let calls = 0;
  const sleeps: number[] = [];
  const http = new HttpClient({
    baseUrl: "http://api.test",
    projectId: "p",
    access: { type: "client", publishableClientKey: "pck" },
    fetch: async () => {
      calls++;
      const next = responses.shift();
      if (!next) throw new Error("no more scripted responses");
      return next;
    },
    sleep: async (ms) => void sleeps.push(ms),
    random: () => 0.5,
  });
  return { http, sleeps, calls: () => calls };
}

/** A 429 as Doorman sends it to the SDK (override-error-status): 200 + x-stack-actual-status. */
const limited = (retryAfter: string) =>
  new Response("Too many requests.", { status: 200, headers: { "x-stack-actual-status": "429", "retry-after": retryAfter } });
const ok = () => new Response(JSON.stringify({ fine: true }), { headers: { "content-type": "application/json" } });

describe("SDK on 429", () => {
  it("waits Retry-After and retries a 429 that arrives as 200 + x-stack-actual-status (even on POST)", async () => {
    const s = scripted([limited("2"), ok()]);
    expect(await s.http.request("/auth/password/sign-in", { body: {} })).toEqual({ fine: true });
    expect(s.sleeps).toEqual([2000]);
    expect(s.calls()).toBe(2);
  });

  it("gives a long Retry-After back at once as RateLimitedError (no multi-minute hang)", async () => {
    const s = scripted([limited("300")]);
    const error = await s.http.request("/auth/password/sign-in", { body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterSeconds).toBe(300);
    expect((error as RateLimitedError).status).toBe(429);
    expect(s.sleeps).toEqual([]);
    expect(errorsFromResult(error)).toEqual({ form: "Too many attempts, try again in 300 s." });
  });

  it("stops after 5 attempts with RateLimitedError", async () => {
    const s = scripted([limited("1"), limited("1"), limited("1"), limited("1"), limited("1")]);
    await expect(s.http.request("/users/me")).rejects.toBeInstanceOf(RateLimitedError);
    expect(s.calls()).toBe(5);
    expect(s.sleeps).toEqual([1000, 1000, 1000, 1000]);
  });

  it("against the worker: the sign-in lockout reads as 'Too many attempts, try again in N s'", async () => {
    const ip = `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
    // One fixed clock for the whole test: limits count in fixed windows, and the eleven slow
    // password checks must not straddle a window boundary (that would reset the count).
    const now = String(Math.floor(Date.now() / 300_000) * 300_000 + 1_000);
    const fetchFromIp = (input: string, init: RequestInit) =>
      workerFetch(input, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), "cf-connecting-ip": ip, "x-doorman-test-now": now },
      });
    const app = new StackClientApp({
      baseUrl: "http://localhost",
      fetch: fetchFromIp,
      redirectMethod: "none",
      projectId: "internal",
      publishableClientKey: DEV_PUBLISHABLE_CLIENT_KEY,
      tokenStore: "memory",
    });
    const email = uniqueEmail("sdk-lockout");
    expect((await app.signUpWithCredential({ email, password: "right password 1", noRedirect: true })).status).toBe("ok");
    await app.signOut();
    for (let i = 0; i < 10; i++) {
      const wrong = await app.signInWithCredential({ email, password: "wrong password", noRedirect: true });
      expect(wrong.status).toBe("error");
    }
    const locked = await app.signInWithCredential({ email, password: "right password 1", noRedirect: true }).catch((e: unknown) => e);
    // Thrown, or returned as an error result: either way a RateLimitedError.
    const error = locked instanceof RateLimitedError ? locked : (locked as { error?: unknown }).error;
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(errorsFromResult(error).form).toMatch(/^Too many attempts, try again in \d+ s\.$/);
  });
});
