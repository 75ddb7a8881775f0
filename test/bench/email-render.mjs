#!/usr/bin/env node
// `npm run bench:email`: render time per email in the QuickJS sandbox, inside workerd (the vitest
// pool, test/bench/email-render-workerd.mjs): cold (a new isolate's first render: QuickJS instance,
// library bundle, warm-up render and snapshot), a fresh instance restored from the snapshot, and warm
// (one render + restoring the snapshot), with a Tailwind theme, a plain theme and no theme, a cache
// hit; the built-in verification email in the sandbox against its precompiled fast path; the CPU
// budget's calibration (ms per interrupt check) and an endless loop it stops; and the sandbox's memory
// before, during and after hostile renders. Writes its section of docs/benchmarks.md (between the
// email-render-bench markers) unless BENCH_NO_WRITE=1. Never part of `npm test`.
// Env: BENCH_EMAIL_COLD (3), BENCH_EMAIL_WARM (30), BENCH_EMAIL_FAST (500).
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", CI: "true" };
const r = spawnSync(join(root, "node_modules", ".bin", "vitest"), ["run", "--config", "test/bench/email-render-vitest.config.mjs"], {
  cwd: root,
  env,
  encoding: "utf8",
});
const out = `${r.stdout}${r.stderr}`;
const line = out.split("\n").find((l) => l.includes("EMAIL_BENCH "));
if (r.status !== 0 || !line) {
  console.error(out);
  console.error("bench:email failed");
  process.exit(1);
}
const f = JSON.parse(line.slice(line.indexOf("EMAIL_BENCH ") + 12));
const row = (name, s, note) => `| ${name} | ${s.n} | ${s.median} | ${s.min} | ${s.max} | ${note} |`;
const cal = (name, c) => `| ${name} | ${c.checks} | ${c.ms} | ${c.msPerCheck} | ${c.stoppedBy} |`;
const fastMs = (f.verificationFastUs / 1000).toFixed(3);
const section = [
  "<!-- email-render-bench:start -->",
  "## Email rendering in the QuickJS sandbox (`npm run bench:email`)",
  "",
  `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, inside workerd (the vitest pool).`,
  "Wall time per render in ms (each render is followed by a zero timer). The machine is shared: medians and minimums are the figures to read.",
  `Snapshot of the warm instance: ${(f.snapshotBytes / 1048576).toFixed(1)} MiB (its non-zero runs).`,
  "",
  "| case | renders | median ms | min | max | what it is |",
  "| --- | --- | --- | --- | --- | --- |",
  row("cold render", f.cold, "new QuickJS instance + library bundle + warm-up render + snapshot, then the email (Tailwind theme)"),
  row("boot alone", f.boot, "the cold part without the email: paid once per isolate"),
  row(
    "fresh instance from the snapshot",
    f.restoreFresh,
    "after a render grew the memory (or a trap): a new bounded Memory, the snapshot written in, no library load",
  ),
  row(
    "warm, Tailwind theme",
    f.warmTailwindTheme,
    `the reference's kind of theme: \`<Tailwind>\` inlines the classes on every render (${f.tailwindChecks} interrupt checks)`,
  ),
  row("warm, plain theme", f.warmPlainTheme, "a theme without Tailwind (the template's classes stay classes)"),
  row("warm, no theme", f.warmNoTheme, "theme_id: false (a bare document, still wrapped in `<Tailwind>` like the reference's)"),
  row("cache hit", f.cached, "same theme, template, variables, user, project and link within 60 s"),
  row(
    "built-in verification email, sandbox",
    f.verificationSandbox,
    `the default theme and template rendered in QuickJS (${f.verificationChecks} interrupt checks)`,
  ),
  `| built-in verification email, fast path | ${f.fastCount} | ${fastMs} | | | the precompiled form: slots filled + html-to-text in the worker; per render over ${f.fastCount} in a row (the first in an isolate: ${f.verificationFastFirstMs} ms) |`,
  row("endless loop", f.infiniteLoop, `\`while (true) {}\` stopped by the CPU budget (${f.budget.toLocaleString("en")} interrupt checks)`),
  "",
  `CPU budget calibration (${f.budget.toLocaleString("en")} interrupt checks; each loop runs until the budget stops it):`,
  "",
  "| loop | checks | ms | ms per check | stopped by |",
  "| --- | --- | --- | --- | --- |",
  cal("`for (;;) {}`", f.loopCalibration),
  cal("`for (;;) o = { a: 1, b: [1, 2] }` (allocates every iteration)", f.allocatingLoopCalibration),
  "",
  `Sandbox memory: ${f.memoryBaseline.wasm} MiB of WebAssembly memory after a render (maximum ${f.memoryBaseline.max} MiB) + the ${f.memoryBaseline.snapshot} MiB snapshot.`,
  "",
  "| hostile render | its answer | memory at its end MiB | after the next render MiB | next render ms |",
  "| --- | --- | --- | --- | --- |",
  ...f.hostile.map((h) => `| \`${h.name}\` | ${h.error} | ${h.endMiB} | ${h.afterMiB} | ${h.nextRenderMs} |`),
  "",
  "Every warm render includes sucrase compiling the theme and template, and restoring the instance's",
  "memory from the snapshot afterwards (so no render sees another's state). A render that grew the",
  "memory is followed by a fresh instance (the next render's time includes it).",
  "<!-- email-render-bench:end -->",
].join("\n");
console.log(section);
if (process.env.BENCH_NO_WRITE !== "1") {
  const file = join(root, "docs", "benchmarks.md");
  const doc = readFileSync(file, "utf8");
  const re = /<!-- email-render-bench:start -->[\s\S]*?<!-- email-render-bench:end -->/;
  writeFileSync(file, re.test(doc) ? doc.replace(re, section) : `${doc.trimEnd()}\n\n${section}\n`);
  console.log("\nwrote docs/benchmarks.md");
}
