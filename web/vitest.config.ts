import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The console's pure helpers (formatting, field checks): plain Node, no workerd, no browser.
// The worker and SDK tests have their own config at the root (vitest.config.ts, inside workerd).
export default defineConfig({
  // The wire contract and the SDK (web/tsconfig.json `paths`; vite does not read them).
  resolve: {
    alias: [
      { find: /^@doorman\/shared\//, replacement: fileURLToPath(new URL("../sdk/src/shared/", import.meta.url)) },
      { find: /^@doorman\/sdk$/, replacement: fileURLToPath(new URL("../sdk/src/index.ts", import.meta.url)) },
      { find: /^@doorman\/sdk\//, replacement: fileURLToPath(new URL("../sdk/src/", import.meta.url)) },
    ],
  },
  test: {
    root: fileURLToPath(new URL(".", import.meta.url)),
    include: ["app/**/*.test.ts"],
    environment: "node",
  },
});
