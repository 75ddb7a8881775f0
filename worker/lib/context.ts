/** Per-request dependencies handed to services: database, clock, randomness, config. */
import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import { DEFAULT_ACCESS_TOKEN_TTL_S, MIN_ACCESS_TOKEN_TTL_S } from "../../sdk/src/shared/constants";
import type { TokenKeys } from "../crypto/access-tokens";
import { type RandomSource, systemRandom } from "../crypto/random";
import * as schema from "../db/schema";
import type { Env } from "../env";
import { StatusError } from "./errors";

export type Db = DrizzleD1Database<typeof schema>;

export type Deps = {
  db: Db;
  env: Env;
  now: () => number;
  random: RandomSource;
  /** Public origin of the API, no trailing slash (the JWT issuer prefix). */
  apiUrl: string;
  tokenKeys: TokenKeys;
  accessTokenTtlSeconds: number;
  /** Runs work after the response (ctx.waitUntil); awaited inline where none exists. */
  defer: (work: Promise<unknown>) => void;
};

/** Public, fixed signing secret for local development only; production must set SERVER_SECRET. */
const DEV_SERVER_SECRET = "doorman-development-server-secret-do-not-use-in-production";

/** The signing secret; a missing one outside development is a configuration error, never a silent default. */
export function serverSecret(env: Env): string {
  if (env.SERVER_SECRET) return env.SERVER_SECRET;
  if (env.ENVIRONMENT === "development") return DEV_SERVER_SECRET;
  throw new StatusError(500, "SERVER_SECRET is not configured: run `wrangler secret put SERVER_SECRET` (see docs/deploy.md).");
}

export function makeDeps(env: Env, options: { origin: string; nowMs?: number; defer?: (p: Promise<unknown>) => void }): Deps {
  const fixedNow = options.nowMs;
  const ttl = Number(env.ACCESS_TOKEN_TTL_SECONDS ?? DEFAULT_ACCESS_TOKEN_TTL_S);
  return {
    db: drizzle(env.DB, { schema }),
    env,
    now: fixedNow === undefined ? () => Date.now() : () => fixedNow,
    random: systemRandom,
    apiUrl: (env.API_URL || options.origin).replace(/\/+$/, ""),
    tokenKeys: { secret: serverSecret(env), previousSecret: env.SERVER_SECRET_PREVIOUS || undefined },
    // Never below 60 s: the Stack SDK needs at least ~45 s of validity to work.
    accessTokenTtlSeconds: Number.isFinite(ttl) ? Math.max(MIN_ACCESS_TOKEN_TTL_S, ttl) : DEFAULT_ACCESS_TOKEN_TTL_S,
    defer: options.defer ?? ((p) => void p.catch((err) => console.error("deferred work failed", err))),
  };
}
