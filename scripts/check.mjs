#!/usr/bin/env node
// `npm run check`: everything but the tests, each step printed, every step run, non-zero exit if any failed.
//   1. bindings types:  worker-configuration.d.ts matches wrangler.toml (wrangler types --check)
//   2. typecheck:       tsc -p on each project of the solution tsconfig.json: worker, sdk, test, web
//   3. lint:            biome check worker sdk web/app test scripts
//   4. cycles:          madge --circular over worker/ and sdk/src (must find none)
//   5. layers:          no import points up worker/'s layer order (scripts/check-layers.mjs over madge's graph)
//   6. generated docs:  docs/errors.md, docs/api.md, worker/crypto/common-passwords.generated.ts and the disposable-domain list are up to date
//   7. bundles:         wrangler deploy --dry-run (worker, and the email renderer worker/email-render/wrangler.toml)
//                       and npm run build (web); prints gzip sizes and fails when a worker bundle passes the
//                       Workers free-plan limit (3 MiB gzip)
//   8. SDK size:        Doorman's SDK client core and React bundles (esbuild, gzip) within the ratchet limits
//                       of test/bench/sdk-size/limits.json (no network; `npm run size` compares with Stack's)
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => join(root, "node_modules", ".bin", name);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", FORCE_COLOR: "0" };

/** The Workers limit on the compressed worker: 3 MiB on the free plan (10 MiB on paid plans). */
const WORKER_GZIP_LIMIT = 3 * 1024 * 1024;
/** `wrangler types` flags: bindings only (runtime types come from @cloudflare/workers-types), vars as string. */
const WRANGLER_TYPES_ARGS = ["types", "--include-runtime=false", "--strict-vars=false"];

const results = [];

function run(cmd, args, opts = {}) {
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, env, stdio: opts.capture ? "pipe" : "inherit", encoding: "utf8", ...opts });
  if (r.error) console.error(r.error.message);
  return { ok: r.status === 0, out: `${r.stdout ?? ""}${r.stderr ?? ""}`, secs: (Date.now() - started) / 1000 };
}

/** Runs one step: prints its header, records ok/failed, never stops the others. */
function step(name, fn) {
  console.log(`\n\x1b[1m━━ check: ${name} ━━\x1b[0m`);
  const started = Date.now();
  let ok = false;
  let note = "";
  try {
    const r = fn();
    ok = r === true || r?.ok === true;
    note = r?.note ?? "";
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
  }
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`${ok ? "\x1b[32mok\x1b[0m" : "\x1b[31mFAILED\x1b[0m"}  ${name} (${secs} s)${note ? `  ${note}` : ""}`);
  results.push({ name, ok, note });
}

function cmdline(cmd, args) {
  const shown = cmd === process.execPath ? "node" : cmd.startsWith(root) ? relative(root, cmd) : cmd;
  console.log(`$ ${[shown, ...args].join(" ")}`);
}

function sh(cmd, args, opts) {
  cmdline(cmd, args);
  return run(cmd, args, opts);
}

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true })
    .map((f) => join(dir, String(f)))
    .filter((f) => statSync(f).isFile());
}

const gzipSize = (file) => gzipSync(readFileSync(file), { level: 9 }).length;

// 1. The bindings' Env type is generated from wrangler.toml; a stale file means a changed wrangler.toml.
step("bindings types up to date (wrangler types --check)", () => {
  const r = sh(bin("wrangler"), [...WRANGLER_TYPES_ARGS, "--check"]);
  if (!r.ok) console.error("worker-configuration.d.ts is stale: run `npm run types` and commit it.");
  return r;
});

// 2. Types of everything, one project at a time (the references of tsconfig.json): the worker (Workers
// types, no DOM), the SDK, the tests, the web app.
const TS_PROJECTS = ["worker", "sdk", "test", "web"];
step(`typecheck (tsc -p ${TS_PROJECTS.join(", ")})`, () => {
  const runs = TS_PROJECTS.map((project) => sh(bin("tsc"), ["-p", project]));
  return { ok: runs.every((r) => r.ok) };
});

// 3. Formatting and lint.
step("lint (biome check)", () => sh(bin("biome"), ["check", "worker", "sdk", "web/app", "test", "scripts"]));

// 4. Import cycles: madge exits non-zero when it finds one.
step("import cycles (madge --circular worker sdk/src)", () => {
  const worker = sh(bin("madge"), ["--circular", "--no-spinner", "--extensions", "ts", "--ts-config", "tsconfig.json", "worker"]);
  const sdk = sh(bin("madge"), ["--circular", "--no-spinner", "--extensions", "ts,tsx", "--ts-config", "tsconfig.json", "sdk/src"]);
  return { ok: worker.ok && sdk.ok };
});

// 5. The folder rule: imports point down the layer order (CONTRIBUTING.md, Layers); offending imports are named.
step("layers (scripts/check-layers.mjs)", () => sh(process.execPath, ["scripts/check-layers.mjs"]));

// 6. Generated files match their sources.
step("generated files up to date (docs/errors.md, docs/api.md, common passwords, disposable domains)", () => {
  const errors = sh(process.execPath, ["scripts/gen-errors-doc.mjs", "--check"]);
  let api = { ok: true };
  if (existsSync(join(root, "scripts", "gen-api-doc.mjs"))) api = sh(process.execPath, ["scripts/gen-api-doc.mjs", "--check"]);
  else console.log("scripts/gen-api-doc.mjs does not exist yet: docs/api.md not checked");
  // The bundled common-password list (worker/crypto/common-passwords.generated.ts) matches its generator.
  const passwords = sh(process.execPath, ["scripts/gen-common-passwords.mjs", "--check"]);
  // The bundled disposable-domain list (worker/services/protection/disposable-domains.generated.ts) matches its generator.
  const disposable = sh(process.execPath, ["scripts/gen-disposable-domains.mjs", "--check"]);
  return { ok: errors.ok && api.ok && passwords.ok && disposable.ok };
});

// 7a. The worker bundles as `wrangler deploy` would upload them (nothing is uploaded): the API worker and
// the email renderer Worker (worker/email-render/wrangler.toml), each within the 3 MiB gzip limit.
function workerBundle(label, configArgs) {
  const out = mkdtempSync(join(tmpdir(), "doorman-bundle-"));
  try {
    const r = sh(bin("wrangler"), ["deploy", "--dry-run", ...configArgs, "--outdir", out], { capture: true });
    if (!r.ok) {
      console.error(r.out);
      return r;
    }
    const files = filesUnder(out).filter((f) => !f.endsWith(".map") && !f.endsWith("README.md"));
    let raw = 0;
    let gz = 0;
    for (const f of files) {
      const size = statSync(f).size;
      const g = gzipSize(f);
      raw += size;
      gz += g;
      console.log(`  ${relative(out, f).padEnd(40)} ${kib(size).padStart(12)}  gzip ${kib(g).padStart(11)}`);
    }
    const over = gz > WORKER_GZIP_LIMIT;
    const note = `${label} ${kib(raw)}, gzip ${kib(gz)} (limit ${kib(WORKER_GZIP_LIMIT)})`;
    console.log(`  total: ${note}`);
    if (over) console.error(`The ${label} bundle is over the Workers free-plan limit of 3 MiB gzip (paid plans: 10 MiB).`);
    return { ok: !over, note };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
step("worker bundle (wrangler deploy --dry-run)", () => workerBundle("worker", []));
step("email renderer bundle (wrangler deploy --dry-run -c worker/email-render/wrangler.toml)", () =>
  workerBundle("email renderer", ["-c", "worker/email-render/wrangler.toml"]),
);

// 7b. The Pages build of the web app.
step("web bundle (npm run build)", () => {
  const r = sh(npm, ["run", "build", "--silent"], { capture: true });
  if (!r.ok) {
    console.error(r.out);
    return r;
  }
  const server = filesUnder(join(root, "web", "build", "server")).filter((f) => !f.endsWith(".map"));
  const client = filesUnder(join(root, "web", "build", "client")).filter((f) => /\.(js|css)$/.test(f));
  const sum = (files) => files.reduce((s, f) => s + gzipSize(f), 0);
  const serverGz = sum(server);
  const sized = client.map((f) => ({ f, gz: gzipSize(f) })).sort((a, b) => b.gz - a.gz);
  const clientGz = sized.reduce((s, x) => s + x.gz, 0);
  console.log(`  web/build/server: ${server.length} files, gzip ${kib(serverGz)}`);
  console.log(`  web/build/client: ${client.length} js/css files, gzip ${kib(clientGz)}; largest:`);
  for (const { f, gz } of sized.slice(0, 5)) console.log(`    ${relative(root, f).padEnd(60)} gzip ${kib(gz).padStart(11)}`);
  return { ok: true, note: `server gzip ${kib(serverGz)}, client gzip ${kib(clientGz)}` };
});

// 8. SDK size: builds only Doorman's two bundles; fails when one grows past its ratchet limit.
step("SDK size (test/bench/sdk-size/guard.mjs)", () => sh(process.execPath, ["test/bench/sdk-size/guard.mjs"]));

console.log("\n\x1b[1m━━ check: summary ━━\x1b[0m");
for (const r of results) console.log(`  ${r.ok ? "ok    " : "FAILED"}  ${r.name}${r.note ? `  (${r.note})` : ""}`);
const failed = results.filter((r) => !r.ok);
console.log(failed.length ? `${failed.length} of ${results.length} checks failed` : `all ${results.length} checks passed`);
process.exit(failed.length ? 1 : 0);
