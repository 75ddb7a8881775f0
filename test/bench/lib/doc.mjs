// docs/benchmarks.md is shared by several benches: each owns a section between
// `<!-- NAME-bench:start -->` and `<!-- NAME-bench:end -->` (or other `<!-- NAME:start/end -->`
// markers), and replaces only its own.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./doorman.mjs";

export const benchmarksFile = join(root, "docs", "benchmarks.md");

const markedSections = /<!-- ([a-z0-9-]+):start -->[\s\S]*?<!-- \1:end -->/g;

/** Every marked section of the current file, in order (for a bench that rewrites the rest). */
export function markedSectionsOf(file = benchmarksFile) {
  if (!existsSync(file)) return [];
  return [...readFileSync(file, "utf8").matchAll(markedSections)].map((m) => m[0]);
}

/** Replaces the section `name` (markers included in `md`) or appends it; keeps the rest of the file. */
export function writeMarkedSection(name, md, file = benchmarksFile) {
  const current = existsSync(file) ? readFileSync(file, "utf8") : "# Benchmarks\n";
  const re = new RegExp(`<!-- ${name}-bench:start -->[\\s\\S]*?<!-- ${name}-bench:end -->`);
  const section = md.trim();
  const next = re.test(current) ? current.replace(re, () => section) : `${current.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, next.endsWith("\n") ? next : `${next}\n`);
}
