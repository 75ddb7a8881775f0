#!/usr/bin/env node
// `npm run bench:metrics`: GET /internal/metrics on a project with 100,000 users and 1,000,000
// events (test/bench/metrics-seed.mjs), against `wrangler dev` on local D1 (fresh state in a temp
// dir). Steps: migrations; the worker creates an owner, a project and its admin key through the
// API; the worker stops; `wrangler d1 execute --local --file` seeds the rows with recursive CTEs;
// the worker starts again; sequential requests give p50/p99; EXPLAIN QUERY PLAN of the worker's own
// metric queries (worker/db/queries/metrics.ts, compiled by vite's esbuild) names each index.
// Writes its section of docs/benchmarks.md (between the metrics-bench markers; `npm run bench`
// keeps it). Never part of `npm test`.
//
// Env: BENCH_METRICS_USERS (100000), BENCH_METRICS_EVENTS (1000000), BENCH_METRICS_DAYS (90),
//      BENCH_METRICS_REQUESTS (60), BENCH_PORT (8797), BENCH_INSPECTOR_PORT (9232), BENCH_NO_WRITE=1.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startEmailRenderer } from "../../scripts/email-renderer-process.mjs";
import { metricsSeedSql } from "./metrics-seed.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const USERS = Number(process.env.BENCH_METRICS_USERS || 100_000);
const EVENTS = Number(process.env.BENCH_METRICS_EVENTS || 1_000_000);
const DAYS = Number(process.env.BENCH_METRICS_DAYS || 90);
const REQUESTS = Number(process.env.BENCH_METRICS_REQUESTS || 60);
const PORT = Number(process.env.BENCH_PORT || 8797);
const INSPECTOR_PORT = Number(process.env.BENCH_INSPECTOR_PORT || 9232);
const API = `http://127.0.0.1:${PORT}/api/v1`;
const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", CI: "true" };
const wrangler = join(root, "node_modules", ".bin", "wrangler");
const PUBLISHABLE_KEY = readConstant("DEV_PUBLISHABLE_CLIENT_KEY");
const START = "<!-- metrics-bench:start -->";
const END = "<!-- metrics-bench:end -->";

function readConstant(name) {
  const src = readFileSync(join(root, "sdk/src/shared/constants.ts"), "utf8");
  const value = src.match(new RegExp(`${name}\\s*=\\s*"([^"]+)"`))?.[1];
  if (!value) throw new Error(`${name} not found in sdk/src/shared/constants.ts`);
  return value;
}
const log = (msg) => console.error(`[bench:metrics] ${msg}`);

let server = null;
// The email renderer Worker, in a workerd process of its own as under `npm start` (started with the first server).
let renderer = null;
const stateDir = mkdtempSync(join(os.tmpdir(), "doorman-bench-metrics-"));

function stopServer() {
  if (!server) return Promise.resolve();
  const s = server;
  server = null;
  if (s.exitCode !== null || s.signalCode !== null) return Promise.resolve();
  return new Promise((res) => {
    s.once("exit", res);
    try {
      process.kill(-s.pid, "SIGTERM");
    } catch {
      res();
    }
    setTimeout(() => {
      try {
        process.kill(-s.pid, "SIGKILL");
      } catch {}
    }, 5000).unref();
  });
}
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, async () => {
    await stopServer();
    renderer?.kill();
    rmSync(stateDir, { recursive: true, force: true });
    process.exit(130);
  });
}

async function startServer() {
  renderer ??= await startEmailRenderer();
  server = spawn(
    wrangler,
    [
      ...["dev", "--ip", "127.0.0.1", "--port", String(PORT), "--inspector-port", String(INSPECTOR_PORT)],
      ...["--persist-to", stateDir, "--var", "ENVIRONMENT:development"],
    ],
    { cwd: root, env: { ...env, ...renderer.registryEnv }, detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  const keep = (d) => {
    out = (out + d).slice(-20000);
  };
  server.stdout.on("data", keep);
  server.stderr.on("data", keep);
  const started = Date.now();
  while (Date.now() - started < 90_000) {
    if (server.exitCode !== null) throw new Error(`wrangler dev exited early:\n${out}`);
    try {
      if ((await fetch(`${API}/health`, { signal: AbortSignal.timeout(5000) })).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`wrangler dev did not answer within 90 s:\n${out}`);
}

async function api(path, headers, body) {
  const res = await fetch(`${API}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${path} → ${res.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

function d1(args) {
  return execFileSync(wrangler, ["d1", ...args, "DB", "--local", "--persist-to", stateDir], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 64 * 1024 * 1024,
  }).toString();
}

/** An owner, a project and an admin key for it, through the API. */
async function createProject() {
  const client = { "x-stack-project-id": "internal", "x-stack-access-type": "client", "x-stack-publishable-client-key": PUBLISHABLE_KEY };
  const owner = await api("/auth/password/sign-up", client, {
    email: `bench-metrics-${Date.now()}@example.com`,
    password: "bench password 12345",
  });
  const project = await api(
    "/internal/projects",
    { ...client, "x-stack-access-token": owner.access_token },
    { display_name: "Metrics bench" },
  );
  const admin = { "x-stack-project-id": project.id, "x-stack-access-type": "admin", "x-stack-admin-access-token": owner.access_token };
  const keys = await api("/internal/api-keys", admin, {
    description: "metrics bench",
    expires_at_millis: Date.now() + 24 * 3600_000,
    has_publishable_client_key: false,
    has_secret_server_key: false,
    has_super_secret_admin_key: true,
  });
  return {
    projectId: project.id,
    headers: {
      "x-stack-project-id": project.id,
      "x-stack-access-type": "admin",
      "x-stack-super-secret-admin-key": keys.super_secret_admin_key,
    },
  };
}

/** The worker's metric queries (compiled from TypeScript), with their parameters written in for EXPLAIN. */
async function explainPlans(projectId, now) {
  const { transformWithEsbuild } = await import("vite");
  const source = readFileSync(join(root, "worker/db/queries/metrics.ts"), "utf8");
  const { code } = await transformWithEsbuild(source, "metrics.ts", { format: "esm", target: "es2022" });
  const dir = join(root, "node_modules", ".cache", "doorman-bench");
  mkdirSync(dir, { recursive: true });
  // The compiled module's only runtime imports are drizzle's (its users.ts import is for findUserRecordsInOrder: stubbed).
  const file = join(dir, "metrics-queries.mjs");
  writeFileSync(
    file,
    code.replace(/from "\.\/users"/, `from "data:text/javascript,export const userRecordFrom=()=>null,userRecordQueries=()=>[];"`),
  );
  const { metricsQueries, DAY_MS } = await import(pathToFileURL(file).href);
  const { SQLiteAsyncDialect } = await import("drizzle-orm/sqlite-core");
  const dialect = new SQLiteAsyncDialect();
  const today = Math.floor(now / DAY_MS);
  const window = { projectId, firstDay: today - 30, lastDay: today, includeAnonymous: false };
  const literal = (v) => (typeof v === "number" ? String(v) : `'${String(v).replaceAll("'", "''")}'`);
  const completedDays = Array.from({ length: 30 }, (_, i) => today - 30 + i);
  return Object.entries(metricsQueries(window, 5, completedDays)).map(([name, query]) => {
    const { sql, params } = dialect.sqlToQuery(query);
    let i = 0;
    const text = sql.replace(/\?/g, () => literal(params[i++]));
    const out = JSON.parse(d1(["execute", "--json", "--command", `EXPLAIN QUERY PLAN ${text.replace(/\s+/g, " ")}`]));
    const details = out[0].results.map((r) => r.detail);
    return { name, details, indexes: [...new Set(details.flatMap((d) => d.match(/INDEX (\w+)/g) ?? []).map((m) => m.slice(6)))] };
  });
}

function percentile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

function section({ seedSecs, rowCounts, latencies, plans, sample, coldMs }) {
  const f1 = (n) => n.toFixed(1);
  const sorted = [...latencies].sort((a, b) => a - b);
  return [
    START,
    "## GET /internal/metrics at 100,000 users and 1,000,000 events",
    "",
    "Generated by `npm run bench:metrics` (test/bench/metrics.mjs). Local workerd figures, as above:",
    "`wrangler dev` on loopback with local D1, one client on the same machine.",
    "",
    `- Date: ${new Date().toISOString()}; ${os.availableParallelism()} CPUs, load average at start ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(" / ")}`,
    `- Data (test/bench/metrics-seed.mjs): ${rowCounts}. Events spread uniformly over ${DAYS} days for random users: 45 % user.active, 25 % sign_in.succeeded, 8 % sign_in.failed, 22 % other types; ten countries.`,
    `- Seeding: \`wrangler d1 execute --local --file\` of four \`INSERT … SELECT\` statements over recursive CTEs (no client loop): ${f1(seedSecs)} s.`,
    `- First request after seeding: ${f1(coldMs)} ms. It counts the window's 30 completed days from the event log and stores them in \`daily_active_users\` (a finished day's events never change); every later request recounts only today.`,
    `- Requests: ${latencies.length} sequential GET /api/v1/internal/metrics with the project's admin key after that one and 2 warm-up requests; the answer is checked (total_users ${sample.total_users.toLocaleString("en-US")}, ${sample.daily_active_users.length} daily points, today's active users ${sample.daily_active_users.at(-1).activity.toLocaleString("en-US")}).`,
    "",
    "| requests | p50 ms | p90 ms | p99 ms | min ms | max ms |",
    "|---:|---:|---:|---:|---:|---:|",
    `| ${latencies.length} | ${f1(percentile(sorted, 0.5))} | ${f1(percentile(sorted, 0.9))} | ${f1(percentile(sorted, 0.99))} | ${f1(sorted[0])} | ${f1(sorted.at(-1))} |`,
    "",
    "Query plans (EXPLAIN QUERY PLAN of worker/db/queries/metrics.ts, run in one D1 batch per request; the",
    "user records of the recent lists are two more small batches):",
    "",
    "| query | indexes used | plan |",
    "|---|---|---|",
    ...plans.map(
      (p) => `| ${p.name} | ${p.indexes.map((i) => `\`${i}\``).join(", ") || "–"} | ${p.details.join("; ").replaceAll("|", "/")} |`,
    ),
    "",
    "Indexes: migration 0009 adds partial covering indexes on events for `user.active` (by time; by user) and",
    "`sign_in.succeeded` (with `data`), and on users `last_active_at` plus small partial indexes for anonymous,",
    "password and OTP users. Daily active users count each day's DISTINCT users in its own index range, so a",
    "duplicate user.active never counts twice and no sort of the whole window is needed; completed days are",
    'counted once (migration 0010, `daily_active_users`), so the rows marked "days not yet counted" run only on a',
    "project's first request of a day.",
    END,
    "",
  ].join("\n");
}

function writeSection(md) {
  const path = join(root, "docs", "benchmarks.md");
  const current = existsSync(path) ? readFileSync(path, "utf8") : "# Benchmarks\n";
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  const next =
    start >= 0 && end > start ? current.slice(0, start) + md.trimEnd() + current.slice(end + END.length) : `${current.trimEnd()}\n\n${md}`;
  writeFileSync(path, next.endsWith("\n") ? next : `${next}\n`);
}

try {
  log(`applying migrations into ${stateDir}`);
  d1(["migrations", "apply"]);
  await startServer();
  const project = await createProject();
  log(`project ${project.projectId}`);
  await stopServer();

  const now = Date.now();
  const seedFile = join(stateDir, "seed.sql");
  writeFileSync(seedFile, metricsSeedSql({ projectId: project.projectId, now, users: USERS, events: EVENTS, days: DAYS }).join("\n"));
  log(`seeding ${USERS} users and ${EVENTS} events …`);
  const t0 = performance.now();
  d1(["execute", "--file", seedFile]);
  const seedSecs = (performance.now() - t0) / 1000;
  const counts = JSON.parse(
    d1([
      "execute",
      "--json",
      "--command",
      `SELECT (SELECT count(*) FROM users WHERE project_id = '${project.projectId}') AS users, (SELECT count(*) FROM events WHERE project_id = '${project.projectId}') AS events, (SELECT count(*) FROM oauth_accounts) AS oauth, (SELECT count(*) FROM passkeys) AS passkeys`,
    ]),
  )[0].results[0];
  const rowCounts = `${counts.users.toLocaleString("en-US")} users, ${counts.events.toLocaleString("en-US")} events, ${counts.oauth.toLocaleString("en-US")} OAuth accounts, ${counts.passkeys.toLocaleString("en-US")} passkeys`;
  log(`seeded in ${seedSecs.toFixed(1)} s: ${rowCounts}`);
  const plans = await explainPlans(project.projectId, now);

  await startServer();
  // The first request counts the window's 30 completed days and stores them (daily_active_users).
  const coldStart = performance.now();
  await api("/internal/metrics", project.headers);
  const coldMs = performance.now() - coldStart;
  for (let i = 0; i < 2; i++) await api("/internal/metrics", project.headers);
  const latencies = [];
  let sample = null;
  for (let i = 0; i < REQUESTS; i++) {
    const t = performance.now();
    sample = await api("/internal/metrics", project.headers);
    latencies.push(performance.now() - t);
  }
  if (sample.total_users < USERS * 0.9) throw new Error(`unexpected total_users ${sample.total_users}`);
  const md = section({ seedSecs, rowCounts, latencies, plans, sample, coldMs });
  console.log(md);
  if (!process.env.BENCH_NO_WRITE) {
    writeSection(md);
    log("wrote its section of docs/benchmarks.md");
  }
} catch (err) {
  console.error(`[bench:metrics] ${err.stack ?? err}`);
  process.exitCode = 1;
} finally {
  await stopServer();
  await renderer?.stop();
  rmSync(stateDir, { recursive: true, force: true });
}
