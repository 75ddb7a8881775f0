#!/usr/bin/env node
// Writes docs/quickstarts.md from the Connect page's quickstarts (web/app/components/connect/quickstarts.ts,
// rendered by quickstarts-doc.ts with placeholder values). web/app/components/connect/quickstarts.test.ts
// fails while the committed file is stale. Usage: npm run docs:quickstarts [-- --check]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const target = join(root, "docs", "quickstarts.md");
const dir = mkdtempSync(join(tmpdir(), "doorman-quickstarts-doc-"));
try {
  const outfile = join(dir, "quickstarts-doc.mjs");
  await build({
    entryPoints: [join(root, "web/app/components/connect/quickstarts-doc.ts")],
    tsconfig: join(root, "web/tsconfig.json"),
    bundle: true,
    format: "esm",
    platform: "neutral",
    outfile,
    logLevel: "error",
  });
  const { renderQuickstartsDoc } = await import(pathToFileURL(outfile).href);
  const md = renderQuickstartsDoc();
  if (process.argv.includes("--check")) {
    let current = "";
    try {
      current = readFileSync(target, "utf8");
    } catch {}
    if (current !== md) {
      console.error("docs/quickstarts.md is stale: run `npm run docs:quickstarts` and commit it.");
      process.exitCode = 1;
    } else console.log("docs/quickstarts.md is up to date");
  } else {
    writeFileSync(target, md);
    console.log("wrote docs/quickstarts.md");
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
