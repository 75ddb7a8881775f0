#!/usr/bin/env node
// Writes docs/api.md (the route table) from the route declarations, through the same OpenAPI
// document the worker serves at /api/v1/openapi.json. The worker is bundled for Node with its
// cloudflare:* imports stubbed (nothing runs; only the declarations are read).
// Usage: npm run docs:api [-- --check] [-- --json FILE]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const target = join(root, "docs", "api.md");
const args = process.argv.slice(2);
const jsonAt = args.includes("--json") ? args[args.indexOf("--json") + 1] : null;

const stubCloudflare = {
  name: "stub-cloudflare",
  setup(b) {
    b.onResolve({ filter: /^cloudflare:/ }, (a) => ({ path: a.path, namespace: "cf-stub" }));
    b.onLoad({ filter: /.*/, namespace: "cf-stub" }, () => ({
      contents:
        "export class DurableObject {}; export class WorkerEntrypoint {}; export const env = {}; export function connect() { throw new Error('no sockets here'); }",
      loader: "js",
    }));
  },
};

const dir = mkdtempSync(join(tmpdir(), "doorman-api-doc-"));
try {
  const outfile = join(dir, "api-doc.mjs");
  await build({
    entryPoints: [join(root, "scripts/api-doc-entry.ts")],
    bundle: true,
    format: "esm",
    platform: "node",
    outfile,
    logLevel: "error",
    // The email sandbox imports its wasm as a module (workerd compiles it); only declarations are read here.
    loader: { ".wasm": "empty" },
    plugins: [stubCloudflare],
    // CommonJS dependencies that require Node built-ins (pkijs's @noble/hashes picks its node:crypto build here) need a require in ESM.
    banner: {
      js: "import { createRequire as __docCreateRequire } from 'node:module'; const require = __docCreateRequire(import.meta.url);",
    },
  });
  const { build: render } = await import(pathToFileURL(outfile).href);
  const { doc, markdown } = render();
  if (jsonAt) writeFileSync(resolve(jsonAt), `${JSON.stringify(doc, null, 2)}\n`);
  if (args.includes("--check")) {
    let current = "";
    try {
      current = readFileSync(target, "utf8");
    } catch {}
    if (current !== markdown) {
      console.error("docs/api.md is stale: run `npm run docs:api`.");
      process.exit(1);
    }
    console.log("docs/api.md is up to date.");
  } else if (!jsonAt) {
    writeFileSync(target, markdown);
    console.log(`wrote docs/api.md (${Object.keys(doc.paths ?? {}).length} paths)`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
