/**
 * Rate limits: fixed-window counters in KV, per IP and per email, on sign-in, sign-up, code
 * sending and code verification. KV is eventually consistent (and allows one write per key per
 * second), so these limits are approximate by design: they stop floods and bulk guessing; the
 * exact per-code attempt cap lives in D1 (verification_codes.attempts).
 * Each rule is "count/seconds", overridable by a wrangler var RATE_LIMIT_<RULE> ("0" turns it off).
 */

import { parseRateLimit, type RateLimit, readRateLimitOverrides } from "../config";
import { sha256Hex } from "../crypto/hash";
import type { Env } from "../env";
import { rateLimitKey } from "../kv/keys";
import type { Deps } from "../lib/context";

export const RATE_LIMIT_RULES = {
  SIGN_IN_PER_IP: "30/60",
  SIGN_IN_PER_EMAIL: "10/300",
  SIGN_UP_PER_IP: "20/3600",
  SIGN_UP_PER_EMAIL: "5/3600",
  OTP_SEND_PER_IP: "20/600",
  OTP_SEND_PER_EMAIL: "5/600",
  RESET_SEND_PER_IP: "20/600",
  RESET_SEND_PER_EMAIL: "5/600",
  CODE_VERIFY_PER_IP: "60/600",
  // CLI login: starting one is rare; polls come every 2 s (1/s keeps KV's per-key write rate).
  CLI_START_PER_IP: "30/3600",
  CLI_POLL_PER_IP: "60/60",
  // OAuth: each authorize stores a 10-minute state row; one per sign-in attempt is plenty.
  OAUTH_AUTHORIZE_PER_IP: "60/600",
  // Secret scanners report leaked keys in small bursts; anyone may call it, so keep it modest.
  CREDENTIAL_SCAN_REVOKE_PER_IP: "60/600",
} as const;

export type RateLimitRule = keyof typeof RATE_LIMIT_RULES;

/** Where overrides come from: the request's deps (typed config), or a raw env (tests). */
export type RateLimitSource = Env | Pick<Deps, "env" | "config">;

function isDeps(source: RateLimitSource): source is Pick<Deps, "env" | "config"> {
  return "config" in source && typeof source.config === "object" && source.config !== null;
}

export function ruleLimit(source: RateLimitSource, rule: RateLimitRule): RateLimit | null {
  const overrides = isDeps(source) ? source.config.rateLimits : readRateLimitOverrides(source);
  const override = overrides[rule];
  return override !== undefined ? override : (parseRateLimit(RATE_LIMIT_RULES[rule]) ?? null);
}

export type RateLimitResult = { ok: true } | { ok: false; retryAfterSeconds: number };

/** Counts one hit of `scope` (an IP or an email) against a rule. */
export async function hitRateLimit(source: RateLimitSource, rule: RateLimitRule, scope: string, nowMs: number): Promise<RateLimitResult> {
  const limit = ruleLimit(source, rule);
  const kv = isDeps(source) ? source.env.KV : source.KV;
  if (!limit) return { ok: true };
  const windowMs = limit.seconds * 1000;
  const windowStart = Math.floor(nowMs / windowMs) * windowMs;
  // Hashed: KV keys are visible in the dashboard and should not list users' emails or IPs.
  const { key, ttl } = rateLimitKey(rule, (await sha256Hex(scope.toLowerCase())).slice(0, 32), windowStart, limit.seconds);
  const count = Number((await kv.get(key)) ?? "0");
  if (count >= limit.count) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((windowStart + windowMs - nowMs) / 1000)) };
  try {
    await kv.put(key, String(count + 1), { expirationTtl: ttl });
  } catch (error) {
    // KV allows one write per key per second; a burst on one key must not turn into a 500.
    // Failing open here loses one count of an approximate limit, nothing more.
    console.warn(`rate limit ${rule}: KV write failed, counting skipped`, error);
  }
  return { ok: true };
}
