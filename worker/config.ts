/**
 * The worker's configuration: every var and secret (see worker/env.ts), validated with zod and
 * turned into one typed `Config`. `makeDeps` reads it once per request and hands it to services as
 * `deps.config`; nothing else reads vars from `env`.
 *
 * Production is the default (ENVIRONMENT unset). A production worker refuses the public
 * development values (the dev SERVER_SECRET, the DEV_* internal-project keys) and the dev/test-only
 * switches (ALLOW_TEST_CLOCK, OAUTH_MOCK_ISSUER): a bad setting is a ConfigError, which the app
 * renders as a plain-text 500 naming the setting. It never falls back to a dev value.
 */

import { DEFAULT_ACCESS_TOKEN_TTL_S, DEV_PUBLISHABLE_CLIENT_KEY, MIN_ACCESS_TOKEN_TTL_S } from "@doorman/shared/constants";
import { DEFAULT_WORKERS_AI_MODEL } from "@doorman/shared/wire-ai-chat";
import { z } from "zod";
import type { EnvVars } from "./env";
import { DEV_SECRET_SERVER_KEY, DEV_SUPER_SECRET_ADMIN_KEY } from "./internal-seed";
import { StatusError } from "./lib/errors";
import type { OutboundBounds } from "./lib/outbound-fetch";

/** Public, fixed signing secret for local development only; refused in production. */
export const DEV_SERVER_SECRET = "doorman-development-server-secret-do-not-use-in-production";

/** The reference e2e suite's cron secret; the development default of CRON_SECRET, refused in production. */
export const DEV_CRON_SECRET = "mock_cron_secret";

/** The public keys of the internal project in development; refused as INTERNAL_* keys in production. */
const DEV_KEYS: ReadonlySet<string> = new Set([DEV_PUBLISHABLE_CLIENT_KEY, DEV_SECRET_SERVER_KEY, DEV_SUPER_SECRET_ADMIN_KEY]);

export type Environment = "development" | "production";
export type RateLimit = { count: number; seconds: number };
export type SmtpConfig = { host: string; port: number; username: string; password: string; senderName: string; senderEmail: string };
export type SharedOAuthKeys = { clientId?: string; clientSecret?: string; tenantId?: string };
export type InternalKeys = { publishable: string; secret: string; admin: string };
/** The platform's Stripe account (Connect platform), for live-mode payments (docs/payments.md). */
export type StripeSettings = {
  /** The platform's secret key (sk_live_… / sk_test_…); null = live mode is unavailable (test mode only). */
  secretKey: string | null;
  /** The signing secret of the webhook endpoint (whsec_…); null = Stripe webhooks are refused. */
  webhookSecret: string | null;
  /** Another Stripe API origin (a local mock, development only); null = api.stripe.com. */
  apiUrl: string | null;
};

/** The deployment's model for the console assistant (a project's `doorman.ai` may choose its own). */
export type DeploymentAi = {
  /** An OpenAI-compatible chat-completions endpoint (AI_BASE_URL, AI_API_KEY, AI_MODEL); null = none. */
  openAiCompatible: { baseUrl: string; apiKey: string | null; model: string } | null;
  /** The Workers AI model used when the `AI` binding is present (AI_MODEL, or the default). */
  workersAiModel: string;
};

/**
 * Bounds of the outbound calls a project points somewhere or a request waits on (docs/security.md,
 * "Outbound calls"). Each `*_TIMEOUT_MS` var sets a call's total; its first-byte limit is the smaller
 * of the default and that total.
 */
export type OutboundLimits = {
  /** One webhook delivery attempt (WEBHOOK_TIMEOUT_MS). */
  webhook: OutboundBounds;
  /** Each call to an OAuth provider: token exchange, refresh, userinfo (OAUTH_TIMEOUT_MS). */
  oauth: OutboundBounds;
  /** Each Stripe API call (STRIPE_TIMEOUT_MS). */
  stripe: OutboundBounds;
  /** The assistant's whole answer (AI_ANSWER_TIMEOUT_MS); its first byte and gaps are the project's `doorman.ai.timeoutMs`. */
  ai: { timeoutMs: number; maxBodyBytes: number };
  /** One range query of the breached-password check (PWNED_PASSWORDS_URL); a sign-up waits on it, and it fails open. */
  pwnedPasswords: OutboundBounds;
  /** One Turnstile siteverify call (TURNSTILE_TIMEOUT_MS): a sign-up or sign-in waits on it. */
  turnstile: OutboundBounds;
  /** One DNS-over-HTTPS lookup of an SSO domain's TXT record (DOH_RESOLVER_URL; issue 31). */
  doh: OutboundBounds;
};

export const DEFAULT_OUTBOUND_LIMITS: OutboundLimits = {
  // Svix's 15 s per attempt; a receiver's answer is a status and a short excerpt, so 256 KiB is plenty.
  webhook: { timeoutMs: 15_000, firstByteMs: 10_000, maxBodyBytes: 256 * 1024 },
  // A sign-in waits on these: token and userinfo JSON is a few KiB.
  oauth: { timeoutMs: 15_000, firstByteMs: 10_000, maxBodyBytes: 1024 * 1024 },
  // No retries inside a call (idempotency keys make the caller's retry safe); Stripe objects are small.
  stripe: { timeoutMs: 20_000, firstByteMs: 15_000, maxBodyBytes: 1024 * 1024 },
  // MAX_OUTPUT_TOKENS (1024) at a slow 10 tokens/s is ~100 s; its event stream is well under 1 MiB.
  ai: { timeoutMs: 180_000, maxBodyBytes: 2 * 1024 * 1024 },
  // A sign-up or password change waits on it and it fails open, so it is short; a padded range answer is
  // 800-1,000+ lines of ~40 bytes (~30-45 KB), so 128 KiB leaves room for the corpus to grow.
  pwnedPasswords: { timeoutMs: 3_000, firstByteMs: 2_000, maxBodyBytes: 128 * 1024 },
  // A person is waiting on the sign-up: siteverify answers in well under a second; its JSON is tiny.
  turnstile: { timeoutMs: 5_000, firstByteMs: 4_000, maxBodyBytes: 16 * 1024 },
  // A team admin waits on the Verify button; a TXT answer in DNS JSON is well under a KiB, 64 KiB is generous.
  doh: { timeoutMs: 5_000, firstByteMs: 5_000, maxBodyBytes: 64 * 1024 },
};

/** The Pwned Passwords range endpoint (https://haveibeenpwned.com/API/v3#PwnedPasswords): the default of a production worker. */
export const DEFAULT_PWNED_PASSWORDS_URL = "https://api.pwnedpasswords.com/range/";

/** Cloudflare's endpoints; a deployment may point them at a local fake (tests, offline development). */
export const DEFAULT_TURNSTILE_SITEVERIFY_URL = "https://challenges.cloudflare.com/turnstile/v0/siteverify";
export const DEFAULT_TURNSTILE_SCRIPT_URL = "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit";

/** The DNS-over-HTTPS JSON resolver SSO domains are verified through (RFC 8484's JSON form; Google's https://dns.google/resolve answers it too). */
export const DEFAULT_DOH_RESOLVER_URL = "https://cloudflare-dns.com/dns-query";

export type Config = {
  environment: Environment;
  /** Public origin of the API without a trailing slash; null = each request's origin. */
  apiUrl: string | null;
  /** Public origin of the web app (purchase pages), no trailing slash; null = the API's origin (they share it by default). */
  webAppUrl: string | null;
  /** Access-token lifetime, never below MIN_ACCESS_TOKEN_TTL_S. */
  accessTokenTtlSeconds: number;
  serverSecret: string;
  serverSecretPrevious: string | null;
  /** Tests move the clock with x-doorman-test-now (development only). */
  allowTestClock: boolean;
  /** The reference e2e suite's fixed passkey challenge ("MOCK"); development only. */
  hardcodedPasskeyChallenge: boolean;
  /** The platform sender for `shared` email; null = the dev outbox. */
  sharedSmtp: SmtpConfig | null;
  /** Shared OAuth keys by provider id (lower case), from SHARED_OAUTH_<PROVIDER>_*. */
  sharedOAuth: Readonly<Record<string, SharedOAuthKeys>>;
  /** The bundled OpenID provider every shared provider uses (development only); null = real providers. */
  oauthMockIssuer: string | null;
  /** Keys the internal project is seeded with; null = not seeded (production without INTERNAL_* secrets). */
  internalKeys: InternalKeys | null;
  /** RATE_LIMIT_<RULE> overrides by rule name; null = the rule is switched off. */
  rateLimits: Readonly<Record<string, RateLimit | null>>;
  apiDocsScriptUrl: string | null;
  stripe: StripeSettings;
  ai: DeploymentAi;
  /**
   * D1 read replication through the Sessions API (D1_READ_REPLICATION=true): each request runs in a
   * D1 session, reads may be served by a nearby replica, and the `x-doorman-d1-bookmark` header carries
   * read-your-writes across requests (docs/deploy.md, "Read replicas").
   */
  d1ReadReplication: boolean;
  /**
   * Whether projects created from now on start with new-device verification on (NEW_PROJECT_DEVICE_VERIFICATION,
   * default true; issue 29). "false" for a deployment whose apps use the published Stack SDK, which has no code step.
   */
  newProjectDeviceVerification: boolean;
  /** The email outbox's first retry delay in seconds (EMAIL_RETRY_BASE_SECONDS, default 20); each retry doubles it. */
  emailRetryBaseSeconds: number;
  /** A project's base send-email capacity per hour (EMAIL_CAPACITY_PER_HOUR, default 200, as the reference); docs/emails.md "Capacity". */
  emailCapacityPerHour: number;
  /** Bounds of outbound calls (webhooks, OAuth providers, Stripe, the assistant's provider). */
  outbound: OutboundLimits;
  /** The bearer secret of the cron-called internal routes (CRON_SECRET); null = those routes refuse every caller. */
  cronSecret: string | null;
  /**
   * The k-anonymity range endpoint new passwords are checked against, as a prefix the 5 hex characters are
   * appended to (PWNED_PASSWORDS_URL; production default DEFAULT_PWNED_PASSWORDS_URL); null = no check
   * (development's default, so `npm start` stays offline, or "off").
   */
  pwnedPasswordsUrl: string | null;
  /** Turnstile's siteverify endpoint and widget script (TURNSTILE_SITEVERIFY_URL, TURNSTILE_SCRIPT_URL); Cloudflare's by default. */
  turnstile: { siteverifyUrl: string; scriptUrl: string };
  /** The DNS-over-HTTPS resolver (application/dns-json) that verifies teams' SSO domains (DOH_RESOLVER_URL; Cloudflare's by default). */
  dohResolverUrl: string;
};

/** A misconfigured worker: a plain-text 500 naming the setting (no known error fits, wire-protocol.md §3). */
export class ConfigError extends StatusError {
  constructor(readonly problems: string[]) {
    super(500, `Doorman configuration error: ${problems.join("; ")}`);
    this.name = "ConfigError";
  }
}

/** An unset var arrives as undefined; an empty one (`API_URL = ""`) means unset too. */
const optional = z
  .string()
  .optional()
  .transform((v) => (v === "" ? undefined : v));

const milliseconds = optional.refine(
  (v) => v === undefined || (/^\d+$/.test(v.trim()) && Number(v) >= 100 && Number(v) <= 600_000),
  "must be a whole number of milliseconds from 100 to 600000",
);

const httpUrl = optional.refine((v) => v === undefined || /^https?:\/\/[^/\s]+/.test(v), "must be an http(s) URL");

const varsSchema = z.object({
  ENVIRONMENT: optional.pipe(z.enum(["development", "production"]).optional()),
  API_URL: httpUrl,
  WEB_APP_URL: httpUrl,
  ACCESS_TOKEN_TTL_SECONDS: optional.refine((v) => v === undefined || /^\d+$/.test(v.trim()), "must be a whole number of seconds"),
  SERVER_SECRET: optional,
  SERVER_SECRET_PREVIOUS: optional,
  ALLOW_TEST_CLOCK: optional.pipe(z.enum(["true", "false"]).optional()),
  EMAIL_RETRY_BASE_SECONDS: optional.refine(
    (v) => v === undefined || (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 3600),
    "must be 1 to 3600 seconds",
  ),
  EMAIL_CAPACITY_PER_HOUR: optional.refine(
    (v) => v === undefined || (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 10_000_000),
    "must be 1 to 10000000 emails per hour",
  ),
  STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING: optional.pipe(z.enum(["true", "false"]).optional()),
  SHARED_SMTP_HOST: optional,
  SHARED_SMTP_PORT: optional.refine(
    (v) => v === undefined || (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 65535),
    "must be a TCP port",
  ),
  SHARED_SMTP_USERNAME: optional,
  SHARED_SMTP_PASSWORD: optional,
  SHARED_SMTP_SENDER_EMAIL: optional.pipe(z.email().optional()),
  SHARED_SMTP_SENDER_NAME: optional,
  OAUTH_MOCK_ISSUER: httpUrl,
  INTERNAL_PUBLISHABLE_CLIENT_KEY: optional,
  INTERNAL_SECRET_SERVER_KEY: optional,
  INTERNAL_SUPER_SECRET_ADMIN_KEY: optional,
  // The web app can serve it from its own origin (npm start does): a same-origin path is fine too.
  API_DOCS_SCRIPT_URL: optional.refine(
    (v) => v === undefined || /^(https?:\/\/[^/\s]+|\/[^/\s])/.test(v),
    "must be an http(s) URL or an absolute path",
  ),
  STRIPE_SECRET_KEY: optional.refine(
    (v) => v === undefined || /^(sk|rk)_(live|test)_\S+$/.test(v),
    "must be a Stripe secret key (sk_live_… or sk_test_…)",
  ),
  // Any secret in development (a Stripe mock signs with its own); production requires Stripe's whsec_… (productionProblems).
  STRIPE_WEBHOOK_SECRET: optional.refine((v) => v === undefined || /^\S{8,}$/.test(v), "must be a webhook signing secret (whsec_…)"),
  STRIPE_API_URL: httpUrl,
  D1_READ_REPLICATION: optional.pipe(z.enum(["true", "false"]).optional()),
  NEW_PROJECT_DEVICE_VERIFICATION: optional.pipe(z.enum(["true", "false"]).optional()),
  AI_BASE_URL: httpUrl,
  AI_API_KEY: optional,
  AI_MODEL: optional.refine((v) => v === undefined || v.length <= 256, "must be at most 256 characters"),
  WEBHOOK_TIMEOUT_MS: milliseconds,
  OAUTH_TIMEOUT_MS: milliseconds,
  STRIPE_TIMEOUT_MS: milliseconds,
  AI_ANSWER_TIMEOUT_MS: milliseconds,
  TURNSTILE_TIMEOUT_MS: milliseconds,
  TURNSTILE_SITEVERIFY_URL: httpUrl,
  TURNSTILE_SCRIPT_URL: httpUrl,
  DOH_RESOLVER_URL: httpUrl,
  CRON_SECRET: optional.refine((v) => v === undefined || v.length >= 16, "must be at least 16 characters"),
  PWNED_PASSWORDS_URL: optional.refine(
    (v) => v === undefined || v === "off" || /^https?:\/\/[^/\s]+\S*$/.test(v),
    'must be an http(s) URL (the range endpoint\'s prefix, e.g. https://api.pwnedpasswords.com/range/) or "off"',
  ),
});
type Vars = z.output<typeof varsSchema>;

/** "count/seconds", or "0" (off). */
export function parseRateLimit(raw: string): RateLimit | null | undefined {
  const value = raw.trim();
  if (value === "0") return null;
  const match = /^(\d+)\/(\d+)$/.exec(value);
  if (!match) return undefined;
  if (match[1] === "0") return null;
  return { count: Number(match[1]), seconds: Math.max(1, Number(match[2])) };
}

/** The RATE_LIMIT_<RULE> overrides in `env`, by rule name; a malformed one is a ConfigError. */
export function readRateLimitOverrides(env: object): Record<string, RateLimit | null> {
  const limits: Record<string, RateLimit | null> = {};
  const problems: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith("RATE_LIMIT_") || typeof value !== "string" || value === "") continue;
    const limit = parseRateLimit(value);
    if (limit === undefined) problems.push(`${name} must be "count/seconds" (e.g. "10/60") or "0", got ${JSON.stringify(value)}`);
    else limits[name.slice("RATE_LIMIT_".length)] = limit;
  }
  if (problems.length) throw new ConfigError(problems);
  return limits;
}

function readSharedOAuth(env: object): Record<string, SharedOAuthKeys> {
  const keys: Record<string, SharedOAuthKeys> = {};
  const fields = { CLIENT_ID: "clientId", CLIENT_SECRET: "clientSecret", TENANT_ID: "tenantId" } as const;
  for (const [name, value] of Object.entries(env)) {
    const match = /^SHARED_OAUTH_([A-Z0-9]+)_(CLIENT_ID|CLIENT_SECRET|TENANT_ID)$/.exec(name);
    if (!match?.[1] || !match[2] || typeof value !== "string" || value === "") continue;
    const provider = match[1].toLowerCase();
    keys[provider] = { ...keys[provider], [fields[match[2] as keyof typeof fields]]: value };
  }
  return keys;
}

function pickVars(env: object): Record<string, unknown> {
  const source = env as Record<string, unknown>;
  const vars: Record<string, unknown> = {};
  for (const key of Object.keys(varsSchema.shape)) vars[key] = source[key];
  return vars;
}

/** Production rules and cross-field checks; returns the problems found. */
function checkVars(vars: Vars, environment: Environment): string[] {
  const problems: string[] = [];
  const production = environment === "production";
  if (production) {
    if (!vars.SERVER_SECRET) problems.push("SERVER_SECRET is not configured: run `wrangler secret put SERVER_SECRET` (see docs/deploy.md)");
    // The dev secret is public: tokens signed with it could be forged by anyone.
    else if (vars.SERVER_SECRET === DEV_SERVER_SECRET)
      problems.push("SERVER_SECRET is the public development secret; production needs its own (`wrangler secret put SERVER_SECRET`)");
    if (vars.SERVER_SECRET_PREVIOUS === DEV_SERVER_SECRET)
      problems.push("SERVER_SECRET_PREVIOUS is the public development secret; remove it (`wrangler secret delete SERVER_SECRET_PREVIOUS`)");
    // Public dev keys on a deployed worker would be a master key to every owner's projects.
    for (const name of ["INTERNAL_PUBLISHABLE_CLIENT_KEY", "INTERNAL_SECRET_SERVER_KEY", "INTERNAL_SUPER_SECRET_ADMIN_KEY"] as const) {
      const value = vars[name];
      if (value && DEV_KEYS.has(value)) problems.push(`${name} is a public development key; production needs its own (see docs/deploy.md)`);
    }
    // The test clock lets any caller move time (expire codes, replay tokens): development only.
    if (vars.ALLOW_TEST_CLOCK === "true") problems.push("ALLOW_TEST_CLOCK is development-only; remove it in production");
    // A known passkey challenge lets a recorded assertion be replayed forever: development only.
    if (vars.STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING === "true")
      problems.push("STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING is development-only; remove it in production");
    // The mock OpenID provider signs anyone in as any email: development only.
    if (vars.OAUTH_MOCK_ISSUER) problems.push("OAUTH_MOCK_ISSUER is development-only; remove it in production");
    // The dev cron secret is public: anyone could trigger the owners' digest mails.
    if (vars.CRON_SECRET === DEV_CRON_SECRET) problems.push("CRON_SECRET is the public development secret; production needs its own");
    // Another Stripe host would receive the platform's secret key and could fake every payment: development only.
    if (vars.STRIPE_API_URL) problems.push("STRIPE_API_URL is development-only (a local Stripe mock); remove it in production");
    // Tokens are only as good as the verifier: a plain-http siteverify could be answered by anyone on the path.
    if (vars.TURNSTILE_SITEVERIFY_URL && !vars.TURNSTILE_SITEVERIFY_URL.startsWith("https://"))
      problems.push("TURNSTILE_SITEVERIFY_URL must be https in production (http is for a local fake)");
    // A plain-http resolver could be answered by anyone on the path, and so verify any domain for any team.
    if (vars.DOH_RESOLVER_URL && !vars.DOH_RESOLVER_URL.startsWith("https://"))
      problems.push("DOH_RESOLVER_URL must be https in production (http is for a local responder)");
    // Stripe's real signing secrets are whsec_…; anything else is a mock's, which anyone could sign with.
    if (vars.STRIPE_WEBHOOK_SECRET && !/^whsec_\S+$/.test(vars.STRIPE_WEBHOOK_SECRET))
      problems.push("STRIPE_WEBHOOK_SECRET must be a Stripe webhook signing secret (whsec_…)");
  }
  const internal = [vars.INTERNAL_PUBLISHABLE_CLIENT_KEY, vars.INTERNAL_SECRET_SERVER_KEY, vars.INTERNAL_SUPER_SECRET_ADMIN_KEY];
  if (internal.some(Boolean) && !internal.every(Boolean))
    problems.push("INTERNAL_PUBLISHABLE_CLIENT_KEY, INTERNAL_SECRET_SERVER_KEY and INTERNAL_SUPER_SECRET_ADMIN_KEY must be set together");
  return problems;
}

/** The default bounds with each `*_TIMEOUT_MS` var's total (the first-byte limit never above it). */
function readOutboundLimits(vars: Vars): OutboundLimits {
  const d = DEFAULT_OUTBOUND_LIMITS;
  const withTotal = (bounds: OutboundBounds, raw: string | undefined): OutboundBounds => {
    if (raw === undefined) return bounds;
    const timeoutMs = Number(raw);
    return { ...bounds, timeoutMs, firstByteMs: Math.min(bounds.firstByteMs ?? timeoutMs, timeoutMs) };
  };
  return {
    webhook: withTotal(d.webhook, vars.WEBHOOK_TIMEOUT_MS),
    oauth: withTotal(d.oauth, vars.OAUTH_TIMEOUT_MS),
    stripe: withTotal(d.stripe, vars.STRIPE_TIMEOUT_MS),
    ai: vars.AI_ANSWER_TIMEOUT_MS === undefined ? d.ai : { ...d.ai, timeoutMs: Number(vars.AI_ANSWER_TIMEOUT_MS) },
    pwnedPasswords: d.pwnedPasswords,
    turnstile: withTotal(d.turnstile, vars.TURNSTILE_TIMEOUT_MS),
    doh: d.doh,
  };
}

/** PWNED_PASSWORDS_URL: "off" = none; unset = the public API in production, none in development (offline). */
function readPwnedPasswordsUrl(raw: string | undefined, development: boolean): string | null {
  if (raw === "off") return null;
  return raw ?? (development ? null : DEFAULT_PWNED_PASSWORDS_URL);
}

function buildConfig(env: object): Config {
  const parsed = varsSchema.safeParse(pickVars(env));
  if (!parsed.success)
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message.replace(/^Invalid input: /, "")}`));
  const vars = parsed.data;
  const environment: Environment = vars.ENVIRONMENT ?? "production";
  const problems = checkVars(vars, environment);
  let rateLimits: Record<string, RateLimit | null> = {};
  try {
    rateLimits = readRateLimitOverrides(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    problems.push(...err.problems);
  }
  if (vars.AI_BASE_URL && !vars.AI_MODEL) problems.push("AI_BASE_URL needs AI_MODEL (the model the endpoint serves)");
  if (problems.length) throw new ConfigError(problems);

  const development = environment === "development";
  const ttl = vars.ACCESS_TOKEN_TTL_SECONDS === undefined ? DEFAULT_ACCESS_TOKEN_TTL_S : Number(vars.ACCESS_TOKEN_TTL_SECONDS);
  const internalKeys: InternalKeys | null =
    vars.INTERNAL_PUBLISHABLE_CLIENT_KEY && vars.INTERNAL_SECRET_SERVER_KEY && vars.INTERNAL_SUPER_SECRET_ADMIN_KEY
      ? {
          publishable: vars.INTERNAL_PUBLISHABLE_CLIENT_KEY,
          secret: vars.INTERNAL_SECRET_SERVER_KEY,
          admin: vars.INTERNAL_SUPER_SECRET_ADMIN_KEY,
        }
      : development
        ? { publishable: DEV_PUBLISHABLE_CLIENT_KEY, secret: DEV_SECRET_SERVER_KEY, admin: DEV_SUPER_SECRET_ADMIN_KEY }
        : null;
  return {
    environment,
    apiUrl: vars.API_URL ? vars.API_URL.replace(/\/+$/, "") : null,
    webAppUrl: vars.WEB_APP_URL ? vars.WEB_APP_URL.replace(/\/+$/, "") : null,
    // Never below 60 s: the Stack SDK needs at least ~45 s of validity to work.
    accessTokenTtlSeconds: Math.max(MIN_ACCESS_TOKEN_TTL_S, ttl),
    serverSecret: vars.SERVER_SECRET ?? DEV_SERVER_SECRET, // production without one was refused above
    serverSecretPrevious: vars.SERVER_SECRET_PREVIOUS ?? null,
    allowTestClock: vars.ALLOW_TEST_CLOCK === "true",
    hardcodedPasskeyChallenge: vars.STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING === "true",
    sharedSmtp: vars.SHARED_SMTP_HOST
      ? {
          host: vars.SHARED_SMTP_HOST,
          port: Number(vars.SHARED_SMTP_PORT ?? "587"),
          username: vars.SHARED_SMTP_USERNAME ?? "",
          password: vars.SHARED_SMTP_PASSWORD ?? "",
          senderName: vars.SHARED_SMTP_SENDER_NAME ?? "Doorman",
          senderEmail: vars.SHARED_SMTP_SENDER_EMAIL ?? "noreply@doorman.localhost",
        }
      : null,
    sharedOAuth: readSharedOAuth(env),
    oauthMockIssuer: vars.OAUTH_MOCK_ISSUER ?? null,
    internalKeys,
    rateLimits,
    apiDocsScriptUrl: vars.API_DOCS_SCRIPT_URL ?? null,
    stripe: {
      secretKey: vars.STRIPE_SECRET_KEY ?? null,
      webhookSecret: vars.STRIPE_WEBHOOK_SECRET ?? null,
      apiUrl: vars.STRIPE_API_URL ? vars.STRIPE_API_URL.replace(/\/+$/, "") : null,
    },
    d1ReadReplication: vars.D1_READ_REPLICATION === "true",
    newProjectDeviceVerification: vars.NEW_PROJECT_DEVICE_VERIFICATION !== "false",
    emailRetryBaseSeconds: vars.EMAIL_RETRY_BASE_SECONDS === undefined ? 20 : Number(vars.EMAIL_RETRY_BASE_SECONDS),
    emailCapacityPerHour: vars.EMAIL_CAPACITY_PER_HOUR === undefined ? 200 : Number(vars.EMAIL_CAPACITY_PER_HOUR),
    ai: {
      openAiCompatible:
        vars.AI_BASE_URL && vars.AI_MODEL
          ? { baseUrl: vars.AI_BASE_URL.replace(/\/+$/, ""), apiKey: vars.AI_API_KEY ?? null, model: vars.AI_MODEL }
          : null,
      workersAiModel: vars.AI_MODEL ?? DEFAULT_WORKERS_AI_MODEL,
    },
    outbound: readOutboundLimits(vars),
    cronSecret: vars.CRON_SECRET ?? (development ? DEV_CRON_SECRET : null),
    pwnedPasswordsUrl: readPwnedPasswordsUrl(vars.PWNED_PASSWORDS_URL, development),
    turnstile: {
      siteverifyUrl: vars.TURNSTILE_SITEVERIFY_URL ?? DEFAULT_TURNSTILE_SITEVERIFY_URL,
      scriptUrl: vars.TURNSTILE_SCRIPT_URL ?? DEFAULT_TURNSTILE_SCRIPT_URL,
    },
    dohResolverUrl: vars.DOH_RESOLVER_URL ?? DEFAULT_DOH_RESOLVER_URL,
  };
}

// One parse per env object: workerd hands the same env to every request of an isolate.
const cache = new WeakMap<object, Config | ConfigError>();

/** The validated configuration of `env`; throws ConfigError naming every wrong setting. */
export function readConfig(env: EnvVars): Config {
  let entry = cache.get(env);
  if (!entry) {
    try {
      entry = buildConfig(env);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      entry = err;
    }
    cache.set(env, entry);
  }
  if (entry instanceof ConfigError) throw entry;
  return entry;
}
