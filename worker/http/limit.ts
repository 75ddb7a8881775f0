/** The rate limit of a declared route: per caller IP and per body email. 429 + Retry-After. */
import type { Context } from "hono";
import { StatusError } from "../lib/errors";
import type { AppEnv } from "../lib/hono-env";
import { hitRateLimit, type RateLimitRule } from "../services/rate-limit";

export class RateLimitedError extends StatusError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, `Too many requests. Try again in ${retryAfterSeconds} seconds.`);
  }
}

/** The caller's IP as Cloudflare reports it; unknown locally (then per-IP rules do not apply). */
export function clientIp(c: Context): string | null {
  return c.req.header("cf-connecting-ip") ?? null;
}

export async function enforceRateLimits(c: Context<AppEnv>, rules: { ip?: RateLimitRule; email?: RateLimitRule }, email?: string) {
  const deps = c.get("deps");
  const ip = clientIp(c);
  const checks: [RateLimitRule, string][] = [];
  if (rules.ip && ip) checks.push([rules.ip, ip]);
  if (rules.email && email) checks.push([rules.email, email]);
  for (const [rule, scope] of checks) {
    const result = await hitRateLimit(deps, rule, scope, deps.now());
    if (!result.ok) throw new RateLimitedError(result.retryAfterSeconds);
  }
}

/** The declared policy, with the email (if any) read from the validated body. */
export async function enforceRouteLimits(
  c: Context<AppEnv>,
  rules: { ip?: RateLimitRule; email?: RateLimitRule } | undefined,
  body: unknown,
) {
  if (!rules) return;
  const email = typeof body === "object" && body !== null && "email" in body && typeof body.email === "string" ? body.email : undefined;
  await enforceRateLimits(c, rules, email);
}
