import { type AddressInfo, createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

/** A free TCP port on 127.0.0.1, chosen by the OS. */
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

// Worker and SDK tests run inside workerd with real D1, KV and Durable Objects.
export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  // The bundled OpenID provider (shared OAuth providers): bindings are static, so its port is
  // chosen here and globalSetup starts it there (test/global-setup.ts).
  const oidcPort = await freeLoopbackPort();
  process.env.DOORMAN_TEST_OIDC_PORT = String(oidcPort);
  // The email renderer Worker runs in a workerd process of its own, as under `npm start`, so a hostile
  // template cannot stall the API's thread: globalSetup starts it on this port (scripts/email-renderer-process.mjs).
  const rendererPort = await freeLoopbackPort();
  process.env.DOORMAN_TEST_RENDERER_PORT = String(rendererPort);
  // The breached-password check's range API (test/pwned-range-fixture.mjs): every sign-up and password
  // change of every test goes through it, as in production; globalSetup starts it on this port.
  const pwnedPort = await freeLoopbackPort();
  process.env.DOORMAN_TEST_PWNED_PORT = String(pwnedPort);
  // The local Turnstile (siteverify and widget script, test/turnstile-fake.mjs), started by globalSetup here.
  const turnstilePort = await freeLoopbackPort();
  process.env.DOORMAN_TEST_TURNSTILE_PORT = String(turnstilePort);
  // The local DNS-over-HTTPS responder (test/doh-responder.mjs) that SSO domains are verified through, started by globalSetup here.
  const dohPort = await freeLoopbackPort();
  process.env.DOORMAN_TEST_DOH_PORT = String(dohPort);
  return {
    // The wire contract's alias (tsconfig.base.json `paths`; vite does not read them).
    resolve: {
      alias: [
        { find: /^@doorman\/shared\//, replacement: fileURLToPath(new URL("./sdk/src/shared/", import.meta.url)) },
        { find: /^@doorman\/sdk$/, replacement: fileURLToPath(new URL("./sdk/src/index.ts", import.meta.url)) },
        { find: /^@doorman\/sdk\//, replacement: fileURLToPath(new URL("./sdk/src/", import.meta.url)) },
      ],
    },
    plugins: [
      cloudflareTest({
        main: "./worker/index.ts",
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            // The committed wrangler.toml is production; the tests run the worker in development.
            ENVIRONMENT: "development",
            API_URL: "http://localhost",
            ALLOW_TEST_CLOCK: "true",
            OAUTH_MOCK_ISSUER: `http://127.0.0.1:${oidcPort}`,
            // The outbox's first retry after 1 s (20 s in production), so retry tests finish quickly.
            EMAIL_RETRY_BASE_SECONDS: "1",
            // The reference's test capacity (200 an hour in production), so send-email is not paced in tests that do not ask for it.
            EMAIL_CAPACITY_PER_HOUR: "100000",
            PWNED_PASSWORDS_URL: `http://127.0.0.1:${pwnedPort}/range/`,
            TURNSTILE_SITEVERIFY_URL: `http://127.0.0.1:${turnstilePort}/turnstile/v0/siteverify`,
            TURNSTILE_SCRIPT_URL: `http://127.0.0.1:${turnstilePort}/turnstile/v0/api.js?render=explicit`,
            // 2 s (5 s when deployed), so the hanging-siteverify test is quick.
            TURNSTILE_TIMEOUT_MS: "2000",
            DOH_RESOLVER_URL: `http://127.0.0.1:${dohPort}/dns-query`,
          },
          // Replaces wrangler.toml's EMAIL_RENDERER service (doorman-email-renderer, not a worker of this pool).
          serviceBindings: { EMAIL_RENDERER: { external: { address: `127.0.0.1:${rendererPort}`, http: {} } } },
        },
      }),
    ],
    test: {
      include: ["test/worker/**/*.test.ts", "test/sdk/**/*.test.ts"],
      setupFiles: ["./test/apply-migrations.ts"],
      globalSetup: ["./test/global-setup.ts"],
      testTimeout: 30_000,
      deps: {
        optimizer: {
          ssr: { enabled: true, include: ["@simplewebauthn/server", "zod", "jose", "@oslojs/otp", "drizzle-orm", "hono", "bcryptjs"] },
        },
      },
    },
  };
});
