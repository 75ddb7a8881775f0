/** The worker's bindings and vars (wrangler.toml). */
export interface Env {
  DB: D1Database;
  KV: KVNamespace;
  SESSION_DO: DurableObjectNamespace<import("./durable/session-do").SessionDO>;
  /** Public API origin, e.g. https://auth.example.com; empty = the request's origin. */
  API_URL?: string;
  ACCESS_TOKEN_TTL_SECONDS?: string;
  /** "development" seeds the internal project with the public dev keys. */
  ENVIRONMENT?: string;
  /** Derives the JWT signing keys (and later the OAuth token encryption key). */
  SERVER_SECRET?: string;
  /** The previous SERVER_SECRET during a rotation: tokens it signed still verify. */
  SERVER_SECRET_PREVIOUS?: string;
  /** Test-only: lets tests move the clock with the x-doorman-test-now header. Never set in production. */
  ALLOW_TEST_CLOCK?: string;
  /** The platform ("shared") mail sender; unset = the dev outbox (emails are only logged). */
  SHARED_SMTP_HOST?: string;
  SHARED_SMTP_PORT?: string;
  SHARED_SMTP_USERNAME?: string;
  SHARED_SMTP_PASSWORD?: string;
  SHARED_SMTP_SENDER_EMAIL?: string;
  SHARED_SMTP_SENDER_NAME?: string;
  /** Dev/test only: every shared OAuth provider uses the bundled OpenID provider at this issuer (see worker/oauth/providers.ts). */
  OAUTH_MOCK_ISSUER?: string;
  /** Shared OAuth keys are read by name: SHARED_OAUTH_<PROVIDER>_CLIENT_ID / _CLIENT_SECRET (e.g. SHARED_OAUTH_GITHUB_CLIENT_ID). */
  /** Production keys for the internal project (wrangler secrets); dev keys are used when unset in development. */
  INTERNAL_PUBLISHABLE_CLIENT_KEY?: string;
  INTERNAL_SECRET_SERVER_KEY?: string;
  INTERNAL_SUPER_SECRET_ADMIN_KEY?: string;
  /** Where /api/v1/docs loads the API reference's script from; unset = the public CDN. */
  API_DOCS_SCRIPT_URL?: string;
}
