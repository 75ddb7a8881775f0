/**
 * Vite config for the Remix web app. Run from the repo root:
 * `remix vite:build --config web/vite.config.ts` (see TOOLCHAIN.md §5).
 */
import { cloudflareDevProxyVitePlugin, vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";

declare module "@remix-run/cloudflare" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig({
  plugins: [
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
