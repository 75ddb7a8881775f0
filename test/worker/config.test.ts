/** Configuration guards of the worker itself. */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { DEV_PUBLISHABLE_CLIENT_KEY } from "@doorman/shared/constants";
import { describe, expect, it } from "vitest";
import { ConfigError, DEV_CRON_SECRET, DEV_SERVER_SECRET, readConfig } from "../../worker/config";
import type { Env } from "../../worker/env";
import worker from "../../worker/index";
import { DEV_SECRET_SERVER_KEY, DEV_SUPER_SECRET_ADMIN_KEY } from "../../worker/internal-seed";
import { serverSecret } from "../../worker/services/deps";

describe("SERVER_SECRET", () => {
  const base = {} as Env;
  it("uses the configured secret", () => {
    expect(serverSecret({ ...base, SERVER_SECRET: "s3cret", ENVIRONMENT: "production" })).toBe("s3cret");
  });
  it("falls back to the public dev value only in development", () => {
    expect(serverSecret({ ...base, ENVIRONMENT: "development" })).toMatch(/development/);
  });
  it("refuses to run without a secret outside development", () => {
    expect(() => serverSecret({ ...base, ENVIRONMENT: "production" })).toThrow(/SERVER_SECRET is not configured/);
    expect(() => serverSecret(base)).toThrow(/SERVER_SECRET is not configured/);
  });
});

// Production is the default; a production worker refuses the public development values and the
// dev/test-only switches, with a plain-text 500 naming the setting, and never falls back to them.
describe("typed config (worker/config.ts)", () => {
  const secret = "a-real-production-secret-0123456789abcdef";
  const prodVars = { ENVIRONMENT: "production", SERVER_SECRET: secret } as const;

  it("is production when ENVIRONMENT is unset, and reads the vars into typed values", () => {
    const config = readConfig({ SERVER_SECRET: secret, ACCESS_TOKEN_TTL_SECONDS: "30", API_URL: "https://auth.example.com/" });
    expect(config.environment).toBe("production");
    expect(config.accessTokenTtlSeconds).toBe(60); // never below 60 s
    expect(config.apiUrl).toBe("https://auth.example.com");
    expect(config.internalKeys).toBeNull(); // no dev-key fallback
    expect(config.allowTestClock).toBe(false);
    expect(config.oauthMockIssuer).toBeNull();
  });

  it("new projects start with new-device verification on unless NEW_PROJECT_DEVICE_VERIFICATION=false (issue 29)", () => {
    expect(readConfig({ ENVIRONMENT: "development" }).newProjectDeviceVerification).toBe(true);
    expect(readConfig({ ENVIRONMENT: "development", NEW_PROJECT_DEVICE_VERIFICATION: "false" }).newProjectDeviceVerification).toBe(false);
    expect(() => readConfig({ ENVIRONMENT: "development", NEW_PROJECT_DEVICE_VERIFICATION: "no" })).toThrow(ConfigError);
  });

  it("development seeds with the dev keys and the dev secret", () => {
    const config = readConfig({ ENVIRONMENT: "development" });
    expect(config.serverSecret).toBe(DEV_SERVER_SECRET);
    expect(config.internalKeys).toEqual({
      publishable: DEV_PUBLISHABLE_CLIENT_KEY,
      secret: DEV_SECRET_SERVER_KEY,
      admin: DEV_SUPER_SECRET_ADMIN_KEY,
    });
  });

  it("production refuses the dev SERVER_SECRET (also as the previous one)", () => {
    expect(() => readConfig({ ENVIRONMENT: "production", SERVER_SECRET: DEV_SERVER_SECRET })).toThrow(ConfigError);
    expect(() => readConfig({ ENVIRONMENT: "production", SERVER_SECRET: DEV_SERVER_SECRET })).toThrow(
      /SERVER_SECRET is the public development secret/,
    );
    expect(() => readConfig({ ...prodVars, SERVER_SECRET_PREVIOUS: DEV_SERVER_SECRET })).toThrow(/SERVER_SECRET_PREVIOUS/);
  });

  it("a Stripe webhook secret must be Stripe's whsec_… in production; development takes a mock's", () => {
    expect(() => readConfig({ ...prodVars, STRIPE_WEBHOOK_SECRET: "mock_stripe_webhook_secret" })).toThrow(
      /STRIPE_WEBHOOK_SECRET must be a Stripe webhook signing secret/,
    );
    expect(readConfig({ ...prodVars, STRIPE_WEBHOOK_SECRET: "whsec_real" }).stripe.webhookSecret).toBe("whsec_real");
    expect(readConfig({ ENVIRONMENT: "development", STRIPE_WEBHOOK_SECRET: "mock_stripe_webhook_secret" }).stripe.webhookSecret).toBe(
      "mock_stripe_webhook_secret",
    );
    expect(() => readConfig({ ENVIRONMENT: "development", STRIPE_WEBHOOK_SECRET: "short" })).toThrow(ConfigError);
  });

  it("production refuses the dev internal-project keys", () => {
    const devKeys = {
      INTERNAL_PUBLISHABLE_CLIENT_KEY: DEV_PUBLISHABLE_CLIENT_KEY,
      INTERNAL_SECRET_SERVER_KEY: DEV_SECRET_SERVER_KEY,
      INTERNAL_SUPER_SECRET_ADMIN_KEY: DEV_SUPER_SECRET_ADMIN_KEY,
    };
    expect(() => readConfig({ ...prodVars, ...devKeys })).toThrow(/INTERNAL_PUBLISHABLE_CLIENT_KEY is a public development key/);
    expect(() => readConfig({ ...prodVars, ...devKeys, INTERNAL_PUBLISHABLE_CLIENT_KEY: "pck_real" })).toThrow(
      /INTERNAL_SECRET_SERVER_KEY is a public development key/,
    );
    const real = {
      INTERNAL_PUBLISHABLE_CLIENT_KEY: "pck_real",
      INTERNAL_SECRET_SERVER_KEY: "ssk_real",
      INTERNAL_SUPER_SECRET_ADMIN_KEY: "sak_real",
    };
    expect(readConfig({ ...prodVars, ...real }).internalKeys).toEqual({ publishable: "pck_real", secret: "ssk_real", admin: "sak_real" });
    expect(() => readConfig({ ...prodVars, INTERNAL_PUBLISHABLE_CLIENT_KEY: "pck_real" })).toThrow(/must be set together/);
  });

  it("production refuses the dev/test-only switches; malformed values are named", () => {
    expect(() => readConfig({ ...prodVars, ALLOW_TEST_CLOCK: "true" })).toThrow(/ALLOW_TEST_CLOCK is development-only/);
    expect(() => readConfig({ ...prodVars, OAUTH_MOCK_ISSUER: "http://127.0.0.1:8114" })).toThrow(/OAUTH_MOCK_ISSUER is development-only/);
    // A plain-http siteverify (the local Turnstile fake) could be answered by anyone on the path.
    expect(() => readConfig({ ...prodVars, TURNSTILE_SITEVERIFY_URL: "http://127.0.0.1:8793/turnstile/v0/siteverify" })).toThrow(
      /TURNSTILE_SITEVERIFY_URL must be https in production/,
    );
    expect(readConfig({ ...prodVars, TURNSTILE_SITEVERIFY_URL: "https://verify.example/siteverify" }).turnstile.siteverifyUrl).toBe(
      "https://verify.example/siteverify",
    );
    expect(() => readConfig({ ...prodVars, ENVIRONMENT: "staging" })).toThrow(/ENVIRONMENT/);
    // The cron secret: the public dev value is refused, unset means no cron caller at all, too short is named.
    expect(() => readConfig({ ...prodVars, CRON_SECRET: DEV_CRON_SECRET })).toThrow(/CRON_SECRET is the public development secret/);
    expect(readConfig(prodVars).cronSecret).toBeNull();
    expect(readConfig({ ENVIRONMENT: "development" }).cronSecret).toBe(DEV_CRON_SECRET);
    expect(() => readConfig({ ...prodVars, CRON_SECRET: "short" })).toThrow(/CRON_SECRET/);
    expect(() => readConfig({ ...prodVars, ACCESS_TOKEN_TTL_SECONDS: "ten minutes" })).toThrow(/ACCESS_TOKEN_TTL_SECONDS/);
    expect(() => readConfig({ ...prodVars, RATE_LIMIT_SIGN_IN_PER_IP: "lots" })).toThrow(/RATE_LIMIT_SIGN_IN_PER_IP/);
    expect(readConfig({ ...prodVars, RATE_LIMIT_SIGN_IN_PER_IP: "0", RATE_LIMIT_SIGN_UP_PER_IP: "3/60" }).rateLimits).toEqual({
      SIGN_IN_PER_IP: null,
      SIGN_UP_PER_IP: { count: 3, seconds: 60 },
    });
  });

  describe("through the worker's fetch", () => {
    /** The test env as a production worker would see it (the dev/test-only switches removed). */
    const production = (vars: Partial<Env>) =>
      ({
        ...env,
        ENVIRONMENT: "production",
        ALLOW_TEST_CLOCK: undefined,
        OAUTH_MOCK_ISSUER: undefined,
        TURNSTILE_SITEVERIFY_URL: undefined,
        DOH_RESOLVER_URL: undefined,
        ...vars,
      }) as Env;

    async function get(path: string, workerEnv: Env, headers: Record<string, string> = {}) {
      const ctx = createExecutionContext();
      const res = await worker.fetch(new Request(`http://localhost/api/v1${path}`, { headers }), workerEnv, ctx);
      await waitOnExecutionContext(ctx);
      return { status: res.status, type: res.headers.get("content-type"), text: await res.text(), res };
    }

    it("without SERVER_SECRET: a plain-text 500 naming it", async () => {
      const res = await get("/health", production({ SERVER_SECRET: undefined }));
      expect(res.status).toBe(500);
      expect(res.type).toMatch(/^text\/plain/);
      expect(res.text).toMatch(/SERVER_SECRET is not configured/);
    });

    it("with the dev SERVER_SECRET or dev internal keys: refused, naming the setting", async () => {
      const devSecret = await get("/health", production({ SERVER_SECRET: DEV_SERVER_SECRET }));
      expect(devSecret.status).toBe(500);
      expect(devSecret.text).toMatch(/SERVER_SECRET is the public development secret/);
      const devKeys = await get(
        "/health",
        production({
          SERVER_SECRET: secret,
          INTERNAL_PUBLISHABLE_CLIENT_KEY: DEV_PUBLISHABLE_CLIENT_KEY,
          INTERNAL_SECRET_SERVER_KEY: DEV_SECRET_SERVER_KEY,
          INTERNAL_SUPER_SECRET_ADMIN_KEY: DEV_SUPER_SECRET_ADMIN_KEY,
        }),
      );
      expect(devKeys.status).toBe(500);
      expect(devKeys.text).toMatch(/INTERNAL_PUBLISHABLE_CLIENT_KEY is a public development key/);
      expect(devKeys.text).not.toContain(DEV_SECRET_SERVER_KEY); // names the setting, never echoes a value
    });

    it("a well-configured production worker serves, but never seeds the internal project with the dev keys", async () => {
      const prod = production({ SERVER_SECRET: secret });
      expect((await get("/health", prod)).status).toBe(200);
      const current = await get("/projects/current", prod, {
        "x-stack-project-id": "internal",
        "x-stack-access-type": "client",
        "x-stack-publishable-client-key": DEV_PUBLISHABLE_CLIENT_KEY,
      });
      expect(current.status).toBeGreaterThanOrEqual(400);
      expect(current.status).toBeLessThan(500);
      expect(current.res.headers.get("x-stack-known-error")).toBeTruthy();
      const row = await env.DB.prepare("SELECT id FROM projects WHERE id = 'internal'").first();
      expect(row).toBeNull();
    });
  });
});
