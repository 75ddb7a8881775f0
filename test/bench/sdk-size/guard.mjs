#!/usr/bin/env node
/**
 * The SDK-size guard of `npm run check`: builds Doorman's two SDK bundles (bundles.mjs; no network,
 * no reference install) and exits 1 when one passes its limit in limits.json (a ratchet).
 * `npm run size` measures them side by side with the published Stack Auth SDK.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUNDLES, benchDir, buildBundle } from "./bundles.mjs";

const limits = JSON.parse(readFileSync(join(benchDir, "limits.json"), "utf8"));
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const out = mkdtempSync(join(tmpdir(), "doorman-sdk-guard-"));
let over = 0;
try {
  for (const bundle of BUNDLES.filter((b) => b.side === "doorman")) {
    const r = await buildBundle(bundle, out);
    const limit = limits[bundle.id];
    const ok = typeof limit === "number" && r.gzip <= limit;
    if (!ok) over += 1;
    console.log(
      `  ${bundle.id.padEnd(14)} minified ${kib(r.raw).padStart(10)}  gzip ${kib(r.gzip).padStart(9)} (${r.gzip} B; limit ${limit ?? "none"} B)${ok ? "" : "  OVER"}`,
    );
    if (!ok) {
      console.log("    largest inputs (minified bytes in the bundle):");
      for (const [file, bytes] of r.files.slice(0, 8)) console.log(`      ${String(bytes).padStart(7)}  ${file}`);
    }
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
if (over) {
  console.error(
    "An SDK bundle grew past its limit in test/bench/sdk-size/limits.json. Find what grew (the inputs above; an import of zod or of worker code into the client is the usual cause); raise the limit only on purpose.",
  );
}
process.exit(over ? 1 : 0);
