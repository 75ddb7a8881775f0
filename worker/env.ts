/**
 * The worker's `env`: the bindings declared in wrangler.toml (D1, KV, the Durable Object, the email renderer),
 * typed by `wrangler types` into worker-configuration.d.ts (`npm run types`; `npm run check`
 * fails when it is stale), plus the vars and secrets, all optional strings here. Code reads the
 * vars and secrets only through the typed, validated config (worker/config.ts), never from `env`.
 */

/** The bindings, as generated from wrangler.toml (global `Cloudflare.Env`). */
export type Bindings = Pick<Cloudflare.Env, "DB" | "KV" | "SESSION_DO" | "WEBHOOK_QUEUE" | "EMAIL_QUEUE"> & {
  /** Workers AI, when the deployment binds it (WorkersAiBinding below). */
  AI?: WorkersAiBinding;
  /**
   * The email renderer Worker (`doorman-email-renderer`, worker/email-render/renderer-worker.ts), a service
   * binding. Optional: a deployment without it renders in the API's isolate (docs/deploy.md).
   */
  EMAIL_RENDERER?: Cloudflare.Env["EMAIL_RENDERER"];
};

/** Vars (wrangler.toml [vars], `--var`) and secrets (`wrangler secret put`), as the runtime hands them over. */
export interface EnvVars {
  /** "production" (the default when unset) or "development" (npm start and the tests set it). */
  ENVIRONMENT?: string;
  /** Public API origin, e.g. https://auth.example.com; empty = the request's origin. */
  API_URL?: string;
  ACCESS_TOKEN_TTL_SECONDS?: string;
  /** Derives the JWT signing keys and the at-rest encryption key. */
  SERVER_SECRET?: string;
  /** The previous SERVER_SECRET during a rotation: tokens it signed still verify. */
  SERVER_SECRET_PREVIOUS?: string;
  /** Test-only: lets tests move the clock with the x-doorman-test-now header. Refused in production. */
  ALLOW_TEST_CLOCK?: string;
  /** Test-only: passkey ceremonies use the reference e2e suite's fixed challenge "MOCK". Refused in production. */
  STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING?: string;
  /** The platform ("shared") mail sender; unset = the dev outbox (emails are only logged). */
  SHARED_SMTP_HOST?: string;
  SHARED_SMTP_PORT?: string;
  SHARED_SMTP_USERNAME?: string;
  SHARED_SMTP_PASSWORD?: string;
  SHARED_SMTP_SENDER_EMAIL?: string;
  SHARED_SMTP_SENDER_NAME?: string;
  /** Dev/test only: every shared OAuth provider uses the bundled OpenID provider at this issuer. Refused in production. */
  OAUTH_MOCK_ISSUER?: string;
  /** Production keys for the internal project (wrangler secrets); the public dev keys are used when unset in development. */
  INTERNAL_PUBLISHABLE_CLIENT_KEY?: string;
  INTERNAL_SECRET_SERVER_KEY?: string;
  INTERNAL_SUPER_SECRET_ADMIN_KEY?: string;
  /** Where /api/v1/docs loads the API reference's script from; unset = the public CDN. */
  API_DOCS_SCRIPT_URL?: string;
  /** The Stripe platform account's secret key (a wrangler secret); unset = live-mode payments are unavailable, test mode only. */
  STRIPE_SECRET_KEY?: string;
  /** The signing secret (whsec_…) of the Stripe webhook endpoint /api/v1/integrations/stripe/webhooks (a wrangler secret). */
  STRIPE_WEBHOOK_SECRET?: string;
  /** Dev/test only: the Stripe API origin (a local mock) instead of https://api.stripe.com. Refused in production. */
  STRIPE_API_URL?: string;
  /** The email outbox's first retry delay in seconds (default 20; doubles per retry, at most 5 attempts). */
  EMAIL_RETRY_BASE_SECONDS?: string;
  /** A project's base send-email capacity per hour (default 200; grows with its volume, ×4 during a boost). */
  EMAIL_CAPACITY_PER_HOUR?: string;
  /** "true": run each request in a D1 session so reads may use read replicas (docs/deploy.md). */
  D1_READ_REPLICATION?: string;
  /** "false": projects created from now on start with new-device verification off (default on; docs/security.md). */
  NEW_PROJECT_DEVICE_VERIFICATION?: string;
  /** The console assistant's deployment model: an OpenAI-compatible endpoint (its base URL, e.g. https://api.openai.com/v1, a key, a model), or with the AI binding the Workers AI model. */
  AI_BASE_URL?: string;
  AI_API_KEY?: string;
  AI_MODEL?: string;
  /** Total time limits of outbound calls, in ms (100–600000; docs/security.md, "Outbound calls"): one webhook attempt (default 15000), each OAuth provider call (15000), each Stripe call (20000), the assistant's whole answer (180000). */
  WEBHOOK_TIMEOUT_MS?: string;
  OAUTH_TIMEOUT_MS?: string;
  STRIPE_TIMEOUT_MS?: string;
  AI_ANSWER_TIMEOUT_MS?: string;
  /** One Turnstile siteverify call's total time limit in ms (default 5000). */
  TURNSTILE_TIMEOUT_MS?: string;
  /** Turnstile's siteverify endpoint; unset = Cloudflare's. Tests and offline development point it at test/turnstile-fake.mjs. */
  TURNSTILE_SITEVERIFY_URL?: string;
  /** The Turnstile widget script the SDK loads (told to clients in GET /projects/current); unset = Cloudflare's api.js?render=explicit. */
  TURNSTILE_SCRIPT_URL?: string;
  /** Enterprise SSO domain verification: a DNS-over-HTTPS resolver answering `application/dns-json` (RFC 8484's JSON form, as Cloudflare's and Google's do); unset = https://cloudflare-dns.com/dns-query. Tests point it at a local responder. */
  DOH_RESOLVER_URL?: string;
  /** The bearer secret of POST /internal/failed-emails-digest (an external cron); unset = that route refuses every caller (the daily cron needs none). */
  CRON_SECRET?: string;
  /** The k-anonymity range endpoint new passwords are checked against (HIBP format; the 5 hex characters are appended): unset = https://api.pwnedpasswords.com/range/ in production, no check in development; "off" = no check. */
  PWNED_PASSWORDS_URL?: string;
  /** Shared OAuth keys: SHARED_OAUTH_<PROVIDER>_CLIENT_ID / _CLIENT_SECRET / _TENANT_ID (e.g. SHARED_OAUTH_GITHUB_CLIENT_ID). */
  [sharedOAuth: `SHARED_OAUTH_${string}`]: string | undefined;
  /** Rate-limit overrides: RATE_LIMIT_<RULE> = "count/seconds", or "0" to switch the rule off. */
  [rateLimit: `RATE_LIMIT_${string}`]: string | undefined;
}

/**
 * The Workers AI binding (`[ai] binding = "AI"` in wrangler.toml when deployed; docs/deploy.md). It is
 * not in the committed wrangler.toml: `wrangler dev` would then need a Cloudflare login, and `npm start`
 * works offline. Only what the assistant calls is typed.
 */
export interface WorkersAiBinding {
  run(model: string, input: { messages: { role: string; content: string }[]; stream?: boolean; max_tokens?: number }): Promise<unknown>;
}

/** The worker's `env`. */
export interface Env extends Bindings, EnvVars {}
