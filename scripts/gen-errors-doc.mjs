#!/usr/bin/env node
// Writes docs/errors.md from the known-error catalogue (sdk/src/shared/known-errors.ts).
// The rendering lives in sdk/src/shared/errors-doc.ts so test/worker/errors-doc.test.ts can
// check, inside workerd, that the committed file is current. Usage: npm run docs:errors [-- --check]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const target = join(root, "docs", "errors.md");
const dir = mkdtempSync(join(tmpdir(), "doorman-errors-doc-"));
try {
  const outfile = join(dir, "errors-doc.mjs");
  await build({
    entryPoints: [join(root, "sdk/src/shared/errors-doc.ts")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    outfile,
    logLevel: "error",
  });
  const { renderErrorsDoc } = await import(pathToFileURL(outfile).href);
  const md = renderErrorsDoc();
  if (process.argv.includes("--check")) {
    let current = "";
    try {
      current = readFileSync(target, "utf8");
    } catch {}
    if (current !== md) {
      console.error("docs/errors.md is stale: run `npm run docs:errors`.");
      process.exit(1);
    }
    console.log("docs/errors.md is up to date.");
  } else {
    writeFileSync(target, md);
    console.log(`wrote ${target.slice(root.length + 1)} (${md.split("\n").length} lines)`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
