/** Per-request dependencies handed to services: database, clock, randomness, typed config. */
import { type Config, readConfig } from "../config";
import type { TokenKeys } from "../crypto/access-tokens";
import { type RandomSource, systemRandom } from "../crypto/random";
import { createDb, type Db } from "../db/client";
import type { Bindings, Env } from "../env";

export type { Db } from "../db/client";

export type Deps = {
  db: Db;
  /** The bindings (KV, the session Durable Object). Vars and secrets are read from `config`. */
  env: Bindings;
  /** The validated configuration (worker/config.ts), read once per request. */
  config: Config;
  now: () => number;
  random: RandomSource;
  /** Public origin of the API, no trailing slash (the JWT issuer prefix). */
  apiUrl: string;
  tokenKeys: TokenKeys;
  accessTokenTtlSeconds: number;
  /** Runs work after the response (ctx.waitUntil); awaited inline where none exists. */
  defer: (work: Promise<unknown>) => void;
  /** Who acts and from where, for the event log (filled by the request middleware; "system" otherwise). */
  audit: AuditContext;
};

export type AuditContext = {
  actorType: "user" | "server" | "admin" | "system";
  actorId: string | null;
  ip: string | null;
  userAgent: string | null;
  countryCode: string | null;
  /**
   * The country a sign-up from this request gets (its rules' countryCode, the new user's country_code):
   * Cloudflare's, or in development only the cf-ipcountry header (wrangler dev's request.cf is a fixed
   * placeholder, which would give every local user one made-up country).
   */
  signUpCountryCode?: string | null;
  /** The request's Accept-Language (at most 256 characters): the locale of the built-in emails it causes (services/email/locale.ts). */
  acceptLanguage?: string | null;
  /** The caller's device token (header x-doorman-device-token, new-device verification; services/protection/). */
  deviceToken?: string | null;
  /** Where the request comes from (Cloudflare's request.cf; in development only the x-doorman-dev-latitude/-longitude headers). */
  latitude?: number | null;
  longitude?: number | null;
  /** The events this request built statements for (committed or not: a consumer checks the row exists). */
  recorded: { id: string; projectId: string; type: string }[];
};

/** The audit fields a call hands to another context (the session Durable Object). */
export type CallerAudit = Omit<AuditContext, "recorded">;

export function callerAudit(deps: Deps): CallerAudit {
  const { recorded: _recorded, ...audit } = deps.audit;
  return audit;
}

/** The signing secret; a missing one (or the public dev value) outside development is a ConfigError, never a silent default. */
export function serverSecret(env: Env): string {
  return readConfig(env).serverSecret;
}

export function makeDeps(
  env: Env,
  options: { origin: string; nowMs?: number; defer?: (p: Promise<unknown>) => void; config?: Config },
): Deps {
  const config = options.config ?? readConfig(env);
  const fixedNow = options.nowMs;
  return {
    db: createDb(env.DB),
    env,
    config,
    now: fixedNow === undefined ? () => Date.now() : () => fixedNow,
    random: systemRandom,
    apiUrl: config.apiUrl ?? options.origin.replace(/\/+$/, ""),
    tokenKeys: { secret: config.serverSecret, previousSecret: config.serverSecretPrevious ?? undefined },
    accessTokenTtlSeconds: config.accessTokenTtlSeconds,
    defer: options.defer ?? ((p) => void p.catch((err) => console.error("deferred work failed", err))),
    audit: { actorType: "system", actorId: null, ip: null, userAgent: null, countryCode: null, recorded: [] },
  };
}
