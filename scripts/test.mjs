#!/usr/bin/env node
// `npm test`: the whole suite, in order, with output streamed.
//   0. make sure Chromium is at /usr/bin/chromium and openssl is there (apt-get them when root; else say how)
//   1. worker + SDK tests inside workerd:        vitest run
//   2. the console's pure helpers, in Node:      vitest run --config web/vitest.config.ts
//   3. the OpenAPI document is valid:           node --test test/contract/openapi.test.mjs
//   4. the published Stack Auth SDK vs Doorman:  node --test test/compat/*.test.mjs (own node_modules)
//   5. browser end-to-end:                       node test/e2e/run.mjs
// Ends with one line "N passed, N failed" (tests summed over the parts) and a non-zero exit
// code if any part failed.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CHROMIUM = "/usr/bin/chromium";
const env = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  CI: "true",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
};
const bin = (name) => join(root, "node_modules", ".bin", name);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

let current = null;
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => {
    if (current) {
      try {
        process.kill(-current.pid, sig);
      } catch {}
    }
    process.exit(130);
  });
}

const stripAnsi = (s) => s.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, "");

/** Runs a command in its own process group, streaming and capturing its output. */
function run(cmd, args, opts = {}) {
  return new Promise((res) => {
    const started = Date.now();
    const child = spawn(cmd, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"], detached: true, ...opts });
    current = child;
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      process.stdout.write(d);
    });
    child.stderr.on("data", (d) => {
      out += d;
      process.stderr.write(d);
    });
    child.on("error", (err) => {
      out += String(err);
      console.error(err.message);
    });
    child.on("close", (code, signal) => {
      current = null;
      // Leftover workerd/wrangler children of a finished part must not outlive it.
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
      res({ code: code ?? (signal ? 1 : 0), out: stripAnsi(out), secs: (Date.now() - started) / 1000 });
    });
  });
}

const hasCommand = (name) => spawnSync("sh", ["-c", `command -v ${name}`], { stdio: "ignore" }).status === 0;

/**
 * Chromium drives the browser e2e; the openssl command makes the e2e's throwaway CA (test/e2e/local-ca.mjs,
 * so the worker can fetch client ID metadata documents over https). A bare Debian has neither.
 */
function ensureTools() {
  const missing = [...(existsSync(CHROMIUM) ? [] : ["chromium"]), ...(hasCommand("openssl") ? [] : ["openssl"])];
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (isRoot && hasCommand("apt-get")) {
    console.log(`[test] missing ${missing.join(" and ")}: installing Debian's packages with apt-get …`);
    const r = spawnSync("sh", ["-c", `apt-get update && apt-get install -y --no-install-recommends ${missing.join(" ")}`], {
      stdio: "inherit",
      env: { ...env, DEBIAN_FRONTEND: "noninteractive" },
    });
    if (r.status === 0 && existsSync(CHROMIUM) && hasCommand("openssl")) return;
  }
  console.error(
    `Missing ${missing.join(" and ")}: install with \`sudo apt-get update && sudo apt-get install -y ${missing.join(" ")}\` and run npm test again.`,
  );
  process.exit(1);
}

/** Counts from vitest's "Tests  3 failed | 40 passed | 1 skipped (44)" line. */
function vitestCounts(out) {
  const lines = out.split("\n").filter((l) => /^\s*Tests\s+\d/.test(l));
  const line = lines.at(-1);
  if (!line) return null;
  const n = (word) => Number(line.match(new RegExp(`(\\d+) ${word}`))?.[1] ?? 0);
  return { passed: n("passed"), failed: n("failed") };
}

/** Counts from node:test's spec/tap summary ("ℹ pass 5" / "# pass 5"). */
function nodeTestCounts(out) {
  const pass = [...out.matchAll(/^[ℹ#] pass (\d+)/gm)].at(-1);
  const fail = [...out.matchAll(/^[ℹ#] fail (\d+)/gm)].at(-1);
  if (!pass && !fail) return null;
  return { passed: Number(pass?.[1] ?? 0), failed: Number(fail?.[1] ?? 0) };
}

/** Counts from a runner's own "N passed, N failed" line (test/e2e/run.mjs). */
function summaryCounts(out) {
  const m = [...out.matchAll(/(\d+) passed, (\d+) failed/g)].at(-1);
  return m ? { passed: Number(m[1]), failed: Number(m[2]) } : null;
}

const parts = [];
async function part(name, cmd, args, parse) {
  console.log(`\n\x1b[1m━━ ${name} ━━\x1b[0m  (${[cmd.replace(`${root}/`, ""), ...args].join(" ")})\n`);
  const r = await run(cmd, args);
  let counts = parse(r.out);
  // A runner that crashed before reporting counts as one failure; a clean exit without a
  // parsable summary counts as one pass.
  if (!counts) counts = r.code === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 };
  if (r.code !== 0 && counts.failed === 0) counts.failed = 1;
  parts.push({ name, ok: r.code === 0, secs: r.secs, ...counts });
}

ensureTools();

await part("worker + SDK tests (vitest, workerd)", bin("vitest"), ["run"], vitestCounts);

await part("console helpers (vitest, node)", bin("vitest"), ["run", "--config", join("web", "vitest.config.ts")], vitestCounts);

await part(
  "API contract: the OpenAPI document (node --test)",
  process.execPath,
  ["--test", "--test-reporter=spec", join("test", "contract", "openapi.test.mjs")],
  nodeTestCounts,
);

const compatDir = join(root, "test", "compat");
const compatTests = existsSync(compatDir) ? readdirSync(compatDir).filter((f) => f.endsWith(".test.mjs")) : [];
if (compatTests.length) {
  if (!existsSync(join(compatDir, "node_modules", "@stackframe", "js"))) {
    console.log("\n[test] installing test/compat dependencies (the published Stack Auth SDK) …");
    const lock = existsSync(join(compatDir, "package-lock.json"));
    const r = await run(npm, [lock ? "ci" : "install", "--prefix", compatDir, "--no-audit", "--no-fund"]);
    if (r.code !== 0) parts.push({ name: "install test/compat", ok: false, secs: r.secs, passed: 0, failed: 1 });
  }
  if (existsSync(join(compatDir, "node_modules", "@stackframe", "js"))) {
    await part(
      "Stack Auth SDK compatibility (node --test)",
      process.execPath,
      ["--test", "--test-reporter=spec", ...compatTests.map((f) => join("test", "compat", f))],
      nodeTestCounts,
    );
  }
}

if (existsSync(join(root, "test", "e2e", "run.mjs"))) {
  await part("browser end-to-end (Chromium)", process.execPath, ["test/e2e/run.mjs"], summaryCounts);
} else {
  console.error("\n[test] test/e2e/run.mjs is missing");
  parts.push({ name: "browser end-to-end (Chromium)", ok: false, secs: 0, passed: 0, failed: 1 });
}

console.log("\n\x1b[1m━━ summary ━━\x1b[0m");
for (const p of parts) {
  console.log(`  ${p.ok ? "ok  " : "FAIL"}  ${p.name}: ${p.passed} passed, ${p.failed} failed (${p.secs.toFixed(1)} s)`);
}
const passed = parts.reduce((s, p) => s + p.passed, 0);
const failed = parts.reduce((s, p) => s + p.failed, 0);
const ok = parts.every((p) => p.ok);
console.log(`${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 ? 0 : 1);
