import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

// Worker and SDK tests run inside workerd with real D1, KV and Durable Objects.
export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  return {
    plugins: [
      cloudflareTest({
        main: "./worker/index.ts",
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: { bindings: { TEST_MIGRATIONS: migrations, API_URL: "http://localhost", ALLOW_TEST_CLOCK: "true" } },
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
