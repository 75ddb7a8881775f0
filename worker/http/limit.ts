/**
 * The rate limit of a declared route: per caller IP, per (body email, IP) and per body email.
 * 429 + Retry-After. Rules are checked from the narrowest key to the widest and the first refusal
 * stops, so one address that is already refused cannot use up the account-wide budget.
 */
import type { Context } from "hono";
import { StatusError } from "../lib/errors";
import { notifyAccountLockout } from "../services/auth/lockout-notice";
import { readProjectConfig } from "../services/project-config/flat";
import { hitRateLimit, type RateLimitProject, type RateLimitRule, type RateLimitTicket, refundRateLimit } from "../services/rate-limit";
import type { AppEnv } from "./hono-env";

export class RateLimitedError extends StatusError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, `Too many requests. Try again in ${retryAfterSeconds} seconds.`);
  }
}

/** What a limit is keyed on: the caller's IP, the body's email, the pair, or the authenticated caller. */
export type RateLimitKeyKind = "ip" | "emailIp" | "email" | "caller";

/** A route's rate-limit policy (RouteSpec.rateLimit). */
export type RateLimitPolicy = {
  ip?: RateLimitRule;
  /** Per (body email, caller IP): e.g. the sign-in lockout of one account from one address. */
  emailIp?: RateLimitRule;
  email?: RateLimitRule;
  /**
   * Per authenticated caller of the project: a project owner's user id (admin access with the owner's
   * token), else the signed-in user, else the key's access type (every holder of that key shares it).
   */
  caller?: RateLimitRule;
  /** Keys that count failures only: a 2xx answer gives the hit back (e.g. wrong passwords). */
  failuresOnly?: readonly RateLimitKeyKind[];
  /** The `email` rule is an account lockout: the hit that starts it emails the account's owner (once per window). */
  lockoutNotice?: boolean;
};

/** The caller's IP as Cloudflare reports it; unknown locally (then per-IP rules do not apply). */
export function clientIp(c: Context): string | null {
  return c.req.header("cf-connecting-ip") ?? null;
}

/** Settles a request's hits once its answer is known (refunds "failures only" hits on success). */
export type RateLimitSettle = (response: Response) => Promise<void>;

const noSettle: RateLimitSettle = async () => {};

function projectOf(c: Context<AppEnv>): RateLimitProject | undefined {
  const project = c.get("auth")?.project;
  if (!project) return undefined;
  return { id: project.id, limits: readProjectConfig(project.config).rate_limits };
}

export async function enforceRateLimits(c: Context<AppEnv>, rules: RateLimitPolicy, email?: string): Promise<RateLimitSettle> {
  const deps = c.get("deps");
  const ip = clientIp(c);
  const project = projectOf(c);
  const checks: [RateLimitKeyKind, RateLimitRule, string][] = [];
  if (rules.ip && ip) checks.push(["ip", rules.ip, ip]);
  if (rules.emailIp && email && ip) checks.push(["emailIp", rules.emailIp, `${email}\n${ip}`]);
  if (rules.email && email) checks.push(["email", rules.email, email]);
  const auth = c.get("auth");
  if (rules.caller && auth) checks.push(["caller", rules.caller, auth.adminUserId ?? auth.user?.user.id ?? `${auth.type}-key`]);
  const refundable: RateLimitTicket[] = [];
  for (const [kind, rule, scope] of checks) {
    const result = await hitRateLimit(deps, rule, scope, deps.now(), project);
    if (!result.ok) {
      const row = auth?.project;
      if (result.first && kind === "email" && rules.lockoutNotice && row) deps.defer(notifyAccountLockout(deps, row, scope));
      throw new RateLimitedError(result.retryAfterSeconds);
    }
    if (result.ticket && rules.failuresOnly?.includes(kind)) refundable.push(result.ticket);
  }
  if (!refundable.length) return noSettle;
  return async (response) => {
    if (response.status >= 200 && response.status < 300) await Promise.all(refundable.map((t) => refundRateLimit(deps, t)));
  };
}

/** The declared policy, with the email (if any) read from the validated body. */
export async function enforceRouteLimits(c: Context<AppEnv>, rules: RateLimitPolicy | undefined, body: unknown): Promise<RateLimitSettle> {
  if (!rules) return noSettle;
  const email = typeof body === "object" && body !== null && "email" in body && typeof body.email === "string" ? body.email : undefined;
  return enforceRateLimits(c, rules, email?.trim().toLowerCase());
}
