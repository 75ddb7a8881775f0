#!/usr/bin/env node
// `npm run bench`: local throughput/latency of the hot API paths, plus the password-hash cost.
// Starts the API worker alone (`wrangler dev`, loopback, fresh state), signs up one user, then
// drives each scenario with autocannon for a bounded time. Prints a markdown report and writes
// it to docs/benchmarks.md. Never part of `npm test` (timing is not a pass/fail criterion).
//
// Env: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 10), BENCH_PORT (8797),
//      BENCH_INSPECTOR_PORT (9232), BENCH_NO_WRITE=1 (print only).
import { execFileSync, spawn } from "node:child_process";
import { randomBytes, scryptSync } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const DURATION = Number(process.env.BENCH_DURATION || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 10);
const PORT = Number(process.env.BENCH_PORT || 8797);
const INSPECTOR_PORT = Number(process.env.BENCH_INSPECTOR_PORT || 9232);
const BASE = `http://127.0.0.1:${PORT}`;
const API = `${BASE}/api/v1`;
const PUBLISHABLE_KEY = readConstant("DEV_PUBLISHABLE_CLIENT_KEY", "this-publishable-client-key-is-for-local-development-only");
const SECRET_KEY = readConstant("DEV_SECRET_SERVER_KEY", "this-secret-server-key-is-for-local-development-only");
const ADMIN_KEY = readConstant("DEV_SUPER_SECRET_ADMIN_KEY", "this-super-secret-admin-key-is-for-local-development-only");
const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", CI: "true" };
const wrangler = join(root, "node_modules", ".bin", "wrangler");

const clientHeaders = {
  "x-stack-project-id": "internal",
  "x-stack-access-type": "client",
  "x-stack-publishable-client-key": PUBLISHABLE_KEY,
};
const serverHeaders = { "x-stack-project-id": "internal", "x-stack-access-type": "server", "x-stack-secret-server-key": SECRET_KEY };
const adminHeaders = { "x-stack-project-id": "internal", "x-stack-access-type": "admin", "x-stack-super-secret-admin-key": ADMIN_KEY };

function readConstant(name, fallback) {
  try {
    const src = readFileSync(join(root, "sdk/src/shared/constants.ts"), "utf8");
    return src.match(new RegExp(`${name}\\s*=\\s*"([^"]+)"`))?.[1] ?? fallback;
  } catch {
    return fallback;
  }
}

function log(msg) {
  console.error(`[bench] ${msg}`);
}

// ── server ──────────────────────────────────────────────────────────────────────────────
let server = null;
let stateDir = null;

function stopServer() {
  if (server && server.exitCode === null && server.signalCode === null) {
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {}
  }
}
function killServerHard() {
  if (!server) return;
  try {
    process.kill(-server.pid, "SIGKILL");
  } catch {}
}
function cleanup() {
  stopServer();
  killServerHard();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
}
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => {
    cleanup();
    process.exit(130);
  });
}

async function startServer() {
  stateDir = mkdtempSync(join(os.tmpdir(), "doorman-bench-"));
  log(`applying migrations into ${stateDir}`);
  execFileSync(wrangler, ["d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir], { cwd: root, env, stdio: "pipe" });
  log(`starting wrangler dev on ${BASE}`);
  server = spawn(
    wrangler,
    // The bench signs one user in thousands of times: the per-email sign-in limit would answer 429s…
    [
      "dev",
      "--ip",
      "127.0.0.1",
      "--port",
      String(PORT),
      "--inspector-port",
      String(INSPECTOR_PORT),
      "--persist-to",
      stateDir,
      // Development mode: the committed wrangler.toml is production, which refuses the dev keys.
      "--var",
      "ENVIRONMENT:development",
      "--var",
      "RATE_LIMIT_SIGN_IN_PER_EMAIL:0",
      // …and all of it comes from 127.0.0.1: the per-address sign-in limit (30/60 s) would too.
      "--var",
      "RATE_LIMIT_SIGN_IN_PER_IP:0",
    ],
    { cwd: root, env, detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  server.stdout.on("data", (d) => {
    out = (out + d).slice(-20000);
  });
  server.stderr.on("data", (d) => {
    out = (out + d).slice(-20000);
  });
  const started = Date.now();
  while (Date.now() - started < 90_000) {
    if (server.exitCode !== null) throw new Error(`wrangler dev exited early:\n${out}`);
    try {
      const res = await fetch(`${API}/health`, { signal: AbortSignal.timeout(5000) });
      if (res.ok) return (Date.now() - started) / 1000;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`wrangler dev did not answer /api/v1/health within 90 s:\n${out}`);
}

/** Resident memory (MiB) of the workerd processes in the server's process group. */
function workerdRssMiB() {
  if (!server) return 0;
  let kib = 0;
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== server.pid) continue; // pgrp
      if (!stat.includes("(workerd)")) continue;
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      kib += Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0);
    } catch {}
  }
  return kib / 1024;
}

// ── scenarios ───────────────────────────────────────────────────────────────────────────
async function post(path, headers, body, method = "POST") {
  const res = await fetch(`${API}${path}`, {
    method,
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify(body ?? {}),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

function cannon(opts) {
  return new Promise((res, rej) => {
    const instance = autocannon({ duration: DURATION, connections: CONNECTIONS, pipelining: 1, timeout: 30, ...opts }, (err, result) =>
      err ? rej(err) : res(result),
    );
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}

async function scenario(name, opts) {
  log(`${name}: ${DURATION} s, ${CONNECTIONS} connections`);
  let peakRss = workerdRssMiB();
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, workerdRssMiB());
  }, 500);
  const r = await cannon(opts);
  clearInterval(sampler);
  const ok = r["2xx"];
  const bad = r.non2xx + r.errors + r.timeouts;
  return {
    name,
    reqPerSec: r.requests.average,
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    max: r.latency.max,
    total: ok + bad,
    ok,
    bad,
    peakRss,
  };
}

// ── password hash reference (Node-native scrypt with the worker's parameters) ────────────
function scryptReference(runs = 20) {
  const params = { N: 2 ** 14, r: 8, p: 5, maxmem: 64 * 1024 * 1024 };
  const salt = randomBytes(16);
  scryptSync("warm-up password", salt, 32, params);
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    scryptSync(`bench password ${i}`, salt, 32, params);
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  const pick = (q) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)];
  return { runs, median: (times[(runs - 1) >> 1] + times[runs >> 1]) / 2, p95: pick(0.95), min: times[0], max: times.at(-1) };
}

// ── report ──────────────────────────────────────────────────────────────────────────────
function versionOf(pkg) {
  try {
    return JSON.parse(readFileSync(join(root, "node_modules", pkg, "package.json"), "utf8")).version;
  } catch {
    return "?";
  }
}

const loadAtStart = os.loadavg();

function report({ results, hash, readySecs }) {
  const f1 = (n) => (Number.isFinite(n) ? n.toFixed(1) : "–");
  const f0 = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "–");
  const cpu = os.cpus()[0]?.model?.trim() ?? "unknown CPU";
  const lines = [
    "# Benchmarks",
    "",
    "Generated by `npm run bench` (test/bench/run.mjs). **Local workerd figures**: the API worker runs under",
    "`wrangler dev` (miniflare/workerd, local SQLite for D1/KV/Durable Objects) on loopback, driven by",
    "autocannon from the same machine, so client and server share the CPU. They show relative costs and",
    "regressions, not Cloudflare production latency.",
    "",
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${os.availableParallelism()} CPUs (\`nproc\`), ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${os.platform()} ${os.release()}`,
    `- Node ${process.version}, wrangler ${versionOf("wrangler")}, workerd ${versionOf("workerd")}, autocannon ${versionOf("autocannon")}`,
    `- Load average when the bench started: ${loadAtStart.map((n) => n.toFixed(2)).join(" / ")} (1 / 5 / 15 min; other work on the machine skews the figures)`,
    `- Load: ${DURATION} s per scenario, ${CONNECTIONS} concurrent connections, no pipelining; worker ready in ${readySecs.toFixed(1)} s`,
    "",
    "## API (internal project, client access)",
    "",
    "| scenario | req/s | p50 ms | p90 ms | p99 ms | max ms | requests | non-2xx/errors | workerd peak RSS MiB |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...results.map(
      (r) =>
        `| ${r.name} | ${f1(r.reqPerSec)} | ${f1(r.p50)} | ${f1(r.p90)} | ${f1(r.p99)} | ${f1(r.max)} | ${f0(r.total)} | ${f0(r.bad)} | ${f0(r.peakRss)} |`,
    ),
    "",
    "- `GET /api/v1/health`: baseline, the routing pipeline plus one `SELECT 1` on D1 (no project auth).",
    "- `GET /api/v1/users/me`: verifies the ES256 access token, loads the user from D1.",
    "- `POST /api/v1/auth/sessions/current/refresh`: the session's Durable Object checks the refresh token and mints an access token.",
    "- `POST /api/v1/auth/password/sign-in`: scrypt verification of the password plus a new session.",
    "- `POST /api/v1/user-api-keys/check`: server key check, then the user API key's checksum, SHA-256 and one indexed lookup.",
    "- `GET /api/v1/team-permissions?recursive=true`: the user's grants in their personal team (team_admin) expanded through containment.",
    "- workerd peak RSS: resident memory of the local workerd process (all of miniflare's simulated services,",
    "  sampled every 0.5 s), not the 128 MB per-isolate limit of production Workers.",
    "",
    "## Password hashing cost",
    "",
    "Node-native reference of the worker's scrypt parameters (N=2^14, r=8, p=5, 32-byte key, 16 MiB):",
    `\`crypto.scryptSync\` in Node ${process.version}, ${hash.runs} runs after one warm-up. In the worker the same`,
    "parameters run through `node:crypto` under `nodejs_compat`; the sign-in row above includes that cost.",
    "",
    "| runs | median ms | p95 ms | min ms | max ms |",
    "|---:|---:|---:|---:|---:|",
    `| ${hash.runs} | ${f1(hash.median)} | ${f1(hash.p95)} | ${f1(hash.min)} | ${f1(hash.max)} |`,
    "",
  ];
  return lines.join("\n");
}

// ── main ────────────────────────────────────────────────────────────────────────────────
try {
  log("timing scrypt (Node-native reference) …");
  const hash = scryptReference(20);
  const readySecs = await startServer();

  const email = `bench-${Date.now()}-${randomBytes(3).toString("hex")}@example.com`;
  const password = "bench password 12345";
  const signUp = await post("/auth/password/sign-up", clientHeaders, { email, password });
  for (const key of ["access_token", "refresh_token", "user_id"]) {
    if (typeof signUp[key] !== "string") throw new Error(`sign-up answer lacks ${key}: ${JSON.stringify(signUp)}`);
  }
  log(`signed up ${email} (user ${signUp.user_id})`);

  const results = [];
  results.push(await scenario("GET /health (baseline)", { url: `${API}/health`, method: "GET" }));
  results.push(
    await scenario("GET /users/me", {
      url: `${API}/users/me`,
      method: "GET",
      headers: { ...clientHeaders, "x-stack-access-token": signUp.access_token },
    }),
  );
  results.push(
    await scenario("POST /auth/sessions/current/refresh", {
      url: `${API}/auth/sessions/current/refresh`,
      method: "POST",
      headers: { ...clientHeaders, "x-stack-refresh-token": signUp.refresh_token, "content-type": "application/json" },
      body: "{}",
    }),
  );
  results.push(
    await scenario("POST /auth/password/sign-in", {
      url: `${API}/auth/password/sign-in`,
      method: "POST",
      headers: { ...clientHeaders, "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    }),
  );

  // Apps check user API keys on their own hot path; team UIs list permissions on every load.
  await post("/internal/projects/current", adminHeaders, { config: { allow_user_api_keys: true } }, "PATCH");
  const userAuth = { ...clientHeaders, "x-stack-access-token": signUp.access_token };
  const apiKey = await post("/user-api-keys", userAuth, { user_id: "me", description: "bench", expires_at_millis: null });
  const me = await fetch(`${API}/users/me`, { headers: userAuth }).then((r) => r.json());
  results.push(
    await scenario("POST /user-api-keys/check", {
      url: `${API}/user-api-keys/check`,
      method: "POST",
      headers: { ...serverHeaders, "content-type": "application/json" },
      body: JSON.stringify({ api_key: apiKey.value }),
    }),
  );
  results.push(
    await scenario("GET /team-permissions (recursive)", {
      url: `${API}/team-permissions?team_id=${me.selected_team_id}&user_id=me&recursive=true`,
      method: "GET",
      headers: userAuth,
    }),
  );

  const md = report({ results, hash, readySecs });
  console.log(md);
  if (!process.env.BENCH_NO_WRITE) {
    // Keeps the section `npm run bench:metrics` wrote (between its markers).
    const previous = readFileSync(join(root, "docs", "benchmarks.md"), "utf8");
    const metrics = previous.match(/<!-- metrics-bench:start -->[\s\S]*<!-- metrics-bench:end -->/)?.[0];
    writeFileSync(join(root, "docs", "benchmarks.md"), metrics ? `${md.trimEnd()}\n\n${metrics}\n` : md);
    log("wrote docs/benchmarks.md");
  }
  const broken = results.filter((r) => r.ok === 0);
  if (broken.length) {
    log(`no successful responses in: ${broken.map((r) => r.name).join(", ")}`);
    process.exitCode = 1;
  }
} catch (err) {
  console.error(`[bench] ${err.stack ?? err}`);
  process.exitCode = 1;
} finally {
  stopServer();
  await new Promise((r) => setTimeout(r, 500));
  cleanup();
}
