import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The console's pure helpers (formatting, field checks): plain Node, no workerd, no browser.
// The worker and SDK tests have their own config at the root (vitest.config.ts, inside workerd).
export default defineConfig({
  test: {
    root: fileURLToPath(new URL(".", import.meta.url)),
    include: ["app/**/*.test.ts"],
    environment: "node",
  },
});
