/**
 * Vite config for the Remix web app. Run from the repo root:
 * `remix vite:build --config web/vite.config.ts` (see TOOLCHAIN.md §5).
 */

import { copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cloudflareDevProxyVitePlugin, vitePlugin as remix } from "@remix-run/dev";
import { defineConfig, type Plugin } from "vite";

declare module "@remix-run/cloudflare" {
  interface Future {
    v3_singleFetch: true;
  }
}

/**
 * Serves the API reference's browser bundle from the web app itself (/vendor/scalar-api-reference.js),
 * so /api/v1/docs works offline under `npm start` (API_DOCS_SCRIPT_URL points at it).
 */
function apiReferenceBundle(): Plugin {
  let client = false;
  return {
    name: "doorman-api-reference-bundle",
    apply: "build",
    configResolved(config) {
      client = !config.build.ssr;
    },
    closeBundle() {
      if (!client) return;
      // The package exports no subpath for its standalone bundle; find it beside the resolved entry.
      const entry = createRequire(import.meta.url).resolve("@scalar/api-reference");
      const pkg = join(entry.slice(0, entry.lastIndexOf("/dist/")), "package.json");
      const target = join("web", "build", "client", "vendor");
      mkdirSync(target, { recursive: true });
      copyFileSync(join(dirname(pkg), "dist", "browser", "standalone.js"), join(target, "scalar-api-reference.js"));
    },
  };
}

export default defineConfig({
  // The wire contract and the SDK (web/tsconfig.json `paths`; vite does not read them).
  resolve: {
    alias: [
      { find: /^@doorman\/shared\//, replacement: fileURLToPath(new URL("../sdk/src/shared/", import.meta.url)) },
      { find: /^@doorman\/sdk$/, replacement: fileURLToPath(new URL("../sdk/src/index.ts", import.meta.url)) },
      { find: /^@doorman\/sdk\//, replacement: fileURLToPath(new URL("../sdk/src/", import.meta.url)) },
    ],
  },
  plugins: [
    apiReferenceBundle(),
    // Reads web/wrangler.toml (not the worker's root config, which declares the Durable Object).
    cloudflareDevProxyVitePlugin({ configPath: "web/wrangler.toml" }),
    remix({
      appDirectory: "web/app",
      buildDirectory: "web/build",
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
  ],
  // `npm run dev:web`: the API runs separately under `wrangler dev` on 8787.
  server: { proxy: { "/api": "http://127.0.0.1:8787" } },
});
