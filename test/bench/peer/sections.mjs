// The other parts' sections of `npm run bench:peer` (issue 32): the idle dev server, the no-proxy
// bench and the D1-outage bench each live in their own file under test/bench and export one function
// returning `{ markdown }`. run.mjs calls them after its own table, once its servers are stopped, and
// writes what they return inside its peer-bench markers. A file that is not there is skipped, and so
// is one PEER_BENCH_SKIP names (a comma list: idle,noproxy,outage).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { root } from "../lib/doorman.mjs";

export const otherSections = [
  { name: "idle", file: "test/bench/idle.mjs", fn: "measureIdle" },
  { name: "noproxy", file: "test/bench/no-proxy.mjs", fn: "noProxyBench" },
  { name: "outage", file: "test/bench/outage.mjs", fn: "outageBench" },
];

/** The names PEER_BENCH_SKIP (or `skip`) lists, lower-cased. */
export function skipped(skip = process.env.PEER_BENCH_SKIP ?? "") {
  return new Set(
    skip
      .split(",")
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
}

/**
 * Runs each present, not skipped section in order; resolves with their markdown blocks. A section that
 * throws or returns no markdown gives a short block saying so (and `failed` lists it), so that a broken
 * part shows in the document instead of vanishing.
 */
export async function runOtherSections({ log, skip, dir = root, sections = otherSections }) {
  const off = skipped(skip);
  const blocks = [];
  const failed = [];
  for (const { name, file, fn } of sections) {
    const path = join(dir, file);
    if (off.has(name)) {
      log(`section ${name} (${file}): skipped by PEER_BENCH_SKIP`);
      continue;
    }
    if (!existsSync(path)) {
      log(`section ${name}: ${file} is not there, skipped`);
      continue;
    }
    log(`section ${name}: ${file} → ${fn}()`);
    try {
      const mod = await import(pathToFileURL(path).href);
      if (typeof mod[fn] !== "function") throw new Error(`${file} does not export ${fn}()`);
      const result = await mod[fn]({ log });
      if (typeof result?.markdown !== "string" || !result.markdown.trim()) throw new Error(`${fn}() returned no markdown`);
      blocks.push(result.markdown.trim());
    } catch (err) {
      log(`section ${name} failed: ${err.stack ?? err}`);
      failed.push(name);
      blocks.push(`### ${name}: not measured\n\n\`${fn}()\` (${file}) failed in this run: ${String(err.message ?? err).split("\n")[0]}`);
    }
  }
  return { blocks, failed };
}
