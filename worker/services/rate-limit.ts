/**
 * Rate limits: fixed-window counters in D1, one row per (rule, hashed scope), counted by ONE atomic
 * statement (`INSERT … ON CONFLICT DO UPDATE … RETURNING`). A read-modify-write (what KV allows)
 * lets a concurrent burst read the same stale count and pass entirely; the upsert cannot.
 * KV only caches a "blocked until" answer, so a flood that is already refused costs no D1 write.
 * Scopes (an email, an IP, an (email, IP) pair) are HMAC-hashed with the server secret: neither
 * store holds a raw email or address. A rule is "count/seconds"; the project's `rate_limits`
 * overrides the worker var RATE_LIMIT_<RULE>, which overrides the default ("0" turns it off).
 */

import { RATE_LIMIT_RULES, type RateLimitRule } from "@doorman/shared/rate-limit-rules";
import { DEV_SERVER_SECRET, parseRateLimit, type RateLimit, readRateLimitOverrides } from "../config";
import { toHex } from "../crypto/hash";
import type { Env } from "../env";
import { rateLimitBlockKey } from "../kv/keys";
import type { Deps } from "./deps";

export { RATE_LIMIT_RULES, type RateLimitRule } from "@doorman/shared/rate-limit-rules";

/** Where overrides come from: the request's deps (typed config), or a raw env (tests). */
export type RateLimitSource = Env | Pick<Deps, "env" | "config">;

/** The project a hit belongs to: its id scopes the counters, its config may override the rules. */
export type RateLimitProject = { id: string; limits?: Partial<Record<string, string>> };

function isDeps(source: RateLimitSource): source is Pick<Deps, "env" | "config"> {
  return "config" in source && typeof source.config === "object" && source.config !== null;
}

export function ruleLimit(source: RateLimitSource, rule: RateLimitRule, project?: RateLimitProject): RateLimit | null {
  const fromProject = project?.limits?.[rule];
  if (fromProject !== undefined) {
    const parsed = parseRateLimit(fromProject);
    if (parsed !== undefined) return parsed;
  }
  const overrides = isDeps(source) ? source.config.rateLimits : readRateLimitOverrides(source);
  const override = overrides[rule];
  return override !== undefined ? override : (parseRateLimit(RATE_LIMIT_RULES[rule]) ?? null);
}

/** Which counter a hit went to, so that a "failures only" rule can give it back. */
export type RateLimitTicket = { bucket: string; windowStart: number };

/** `first`: this hit is the one that closed the window (exactly one per window, by the atomic count). */
export type RateLimitResult = { ok: true; ticket: RateLimitTicket | null } | { ok: false; retryAfterSeconds: number; first?: boolean };

const encoder = new TextEncoder();

async function scopeHash(secret: string, value: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(`doorman-rate-limit:${secret}`),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return toHex(await crypto.subtle.sign("HMAC", key, encoder.encode(value))).slice(0, 32);
}

function bindings(source: RateLimitSource): { db: D1Database; kv: KVNamespace; secret: string } {
  if (isDeps(source)) return { db: source.env.DB, kv: source.env.KV, secret: source.config.serverSecret };
  return { db: source.DB, kv: source.KV, secret: source.SERVER_SECRET || DEV_SERVER_SECRET };
}

// One row per bucket holding its current window: a hit in a newer window restarts the count, so old
// windows never pile up. SET expressions read the row's old values (SQLite semantics).
const UPSERT = `INSERT INTO rate_limit_counters (bucket, window_start, count, expires_at) VALUES (?1, ?2, 1, ?3)
ON CONFLICT (bucket) DO UPDATE SET
  count = CASE WHEN rate_limit_counters.window_start = excluded.window_start THEN rate_limit_counters.count + 1 ELSE 1 END,
  window_start = excluded.window_start,
  expires_at = excluded.expires_at
RETURNING count, window_start`;
// Buckets nobody hits again (one-off addresses): a few expired rows go whenever a window opens.
const PRUNE = `DELETE FROM rate_limit_counters WHERE bucket IN
  (SELECT bucket FROM rate_limit_counters WHERE expires_at < ?1 ORDER BY expires_at LIMIT 50)`;
const REFUND = "UPDATE rate_limit_counters SET count = count - 1 WHERE bucket = ?1 AND window_start = ?2 AND count > 0";

/** Counts one hit of `scope` (an IP, an email, or an email and IP) against a rule, atomically. */
export async function hitRateLimit(
  source: RateLimitSource,
  rule: RateLimitRule,
  scope: string,
  nowMs: number,
  project?: RateLimitProject,
): Promise<RateLimitResult> {
  const limit = ruleLimit(source, rule, project);
  if (!limit) return { ok: true, ticket: null };
  const { db, kv, secret } = bindings(source);
  const windowMs = limit.seconds * 1000;
  const windowStart = Math.floor(nowMs / windowMs) * windowMs;
  const windowEnd = windowStart + windowMs;
  const bucket = `${rule}:${await scopeHash(secret, `${project?.id ?? ""}\n${scope.toLowerCase()}`)}`;
  const blocked = (until: number) => ({ ok: false as const, retryAfterSeconds: Math.max(1, Math.ceil((until - nowMs) / 1000)) });

  const blockKey = rateLimitBlockKey(bucket);
  const cachedUntil = Number((await kv.get(blockKey.key)) ?? "0");
  if (cachedUntil > nowMs && cachedUntil <= windowEnd) return blocked(cachedUntil);

  const row = await db.prepare(UPSERT).bind(bucket, windowStart, windowEnd).first<{ count: number; window_start: number }>();
  const count = row?.count ?? 1;
  if (count === 1) await db.prepare(PRUNE).bind(nowMs).run();
  if (count > limit.count) {
    if (count === limit.count + 1) {
      try {
        await kv.put(blockKey.key, String(windowEnd), { expirationTtl: blockKey.ttl(limit.seconds) });
      } catch (error) {
        // Only a cache: the D1 counter keeps refusing without it.
        console.warn(`rate limit ${rule}: caching the block failed`, error);
      }
    }
    return { ...blocked(windowEnd), first: count === limit.count + 1 };
  }
  return { ok: true, ticket: { bucket, windowStart } };
}

/** Gives a hit back (a "failures only" rule whose request succeeded). Never below zero. */
export async function refundRateLimit(source: RateLimitSource, ticket: RateLimitTicket): Promise<void> {
  await bindings(source).db.prepare(REFUND).bind(ticket.bucket, ticket.windowStart).run();
}

/**
 * The current windows' counts of a few (rule, scope) buckets, read-only and in one statement (the risk
 * signals: recent failures of an account or an address, sign-ups from one address). A rule that is
 * off, or a bucket not hit in its current window, reads 0.
 */
export async function peekRateLimits(
  source: RateLimitSource,
  checks: { rule: RateLimitRule; scope: string }[],
  nowMs: number,
  project?: RateLimitProject,
): Promise<number[]> {
  const { db, secret } = bindings(source);
  const wanted = await Promise.all(
    checks.map(async ({ rule, scope }) => {
      const limit = ruleLimit(source, rule, project);
      if (!limit) return null;
      const windowMs = limit.seconds * 1000;
      const bucket = `${rule}:${await scopeHash(secret, `${project?.id ?? ""}\n${scope.toLowerCase()}`)}`;
      return { bucket, windowStart: Math.floor(nowMs / windowMs) * windowMs };
    }),
  );
  const live = wanted.filter((w): w is { bucket: string; windowStart: number } => w !== null);
  if (live.length === 0) return checks.map(() => 0);
  const rows = await db
    .prepare(`SELECT bucket, window_start, count FROM rate_limit_counters WHERE bucket IN (${live.map(() => "?").join(", ")})`)
    .bind(...live.map((w) => w.bucket))
    .all<{ bucket: string; window_start: number; count: number }>();
  return wanted.map((w) => {
    const row = w && rows.results.find((r) => r.bucket === w.bucket && r.window_start === w.windowStart);
    return row ? row.count : 0;
  });
}
