#!/usr/bin/env node
// `npm run bench:peer`: Doorman (`wrangler dev`, local workerd) side by side with two Better Auth
// peers (the version pinned in this folder's own package.json, installed on first run), and Doorman
// once more without a dev proxy (its production build in workerd through Miniflare's own API, loaded on
// the worker's direct socket: test/bench/lib/miniflare.mjs):
//   - on workerd: a Worker on D1 run by the same root `wrangler dev` with local D1 (workerd/), hashing
//     passwords with Doorman's own Argon2id, so both workerd sides pay the same hash;
//   - on Node: its http server and better-sqlite3 (server.mjs), Better Auth as shipped (scrypt).
// All four run on this machine at once; the same autocannon load goes at each in turn, in rounds
// whose order rotates. For each round it reads the CPU time (utime+stime) of each server's whole
// process tree from /proc before and after (for the no-proxy Doorman, its workerd process only: the
// node side of Miniflare is this bench process), and divides by the answers received. Then the issue-32
// targets (ratios against the workerd peer and the Node peer, and the no-proxy Doorman against the
// Node peer: neither has a dev proxy in front), then the other parts' sections
// (sections.mjs: idle dev server, no-proxy bench, D1 outage) when their files are there. Writes its
// section of docs/benchmarks.md (between the peer-bench markers).
// Never part of `npm test`: timings are reported, not asserted.
//
// Flags: --profile  also saves CPU profiles of the Node peer's process (`--cpu-prof`) under a short
//                   read run and a short sign-in run: docs/perf/peer-read.cpuprofile, peer-sign-in.cpuprofile.
// Env:   PEER_BENCH_DURATION (s per round, default 10), PEER_BENCH_ROUNDS (per side, 3),
//        PEER_BENCH_WARMUP (s per side before an operation's rounds, 2), PEER_BENCH_PROFILE_SECS (3),
//        PEER_BENCH_READ_CONNECTIONS (32), PEER_BENCH_SIGN_IN_CONNECTIONS (4),
//        PEER_BENCH_REFRESH_CONNECTIONS (32), PEER_BENCH_SIGN_UP_CONNECTIONS (32), PEER_BENCH_PORT (8798, Node peer),
//        PEER_BENCH_WORKERD_PORT (8799), PEER_BENCH_WORKERD_INSPECTOR_PORT (9233), BENCH_PORT (8797),
//        BENCH_INSPECTOR_PORT (9232) (the no-proxy Doorman takes free ports), PEER_BENCH_SKIP (comma list of idle,noproxy,outage: sections not run),
//        BENCH_NO_WRITE=1 (print only).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { randomBytes, scryptSync } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { writeMarkedSection } from "../lib/doc.mjs";
import { allRateLimitsOff, clientHeaders, post, root, startDoorman, stopAllDoormen, versionOf } from "../lib/doorman.mjs";
import { cannon, counts } from "../lib/load.mjs";
import { startMiniflareWorker } from "../lib/miniflare.mjs";
import { describeDoormanHash, doormanHasher, doormanHashParams } from "../lib/password-hash.mjs";
import { cpuDelta, cpuResolutionMs, processTree } from "../lib/proc.mjs";
import { runOtherSections } from "./sections.mjs";
import { startPeerWorker, stopAllPeerWorkers } from "./workerd/start.mjs";

const num = (name, fallback) => Number(process.env[name] || fallback);
const DURATION = num("PEER_BENCH_DURATION", 10);
const ROUNDS = num("PEER_BENCH_ROUNDS", 3);
const WARMUP = num("PEER_BENCH_WARMUP", 2);
const PROFILE_SECS = num("PEER_BENCH_PROFILE_SECS", 3);
const READ_CONNECTIONS = num("PEER_BENCH_READ_CONNECTIONS", 32);
const SIGN_IN_CONNECTIONS = num("PEER_BENCH_SIGN_IN_CONNECTIONS", 4);
const REFRESH_CONNECTIONS = num("PEER_BENCH_REFRESH_CONNECTIONS", 32);
const SIGN_UP_CONNECTIONS = num("PEER_BENCH_SIGN_UP_CONNECTIONS", 32);
const PEER_PORT = num("PEER_BENCH_PORT", 8798);
const WORKERD_PORT = num("PEER_BENCH_WORKERD_PORT", 8799);
const WORKERD_INSPECTOR_PORT = num("PEER_BENCH_WORKERD_INSPECTOR_PORT", 9233);
const DOORMAN_PORT = num("BENCH_PORT", 8797);
const INSPECTOR_PORT = num("BENCH_INSPECTOR_PORT", 9232);
const PROFILE = process.argv.includes("--profile");

const peerDir = join(root, "test", "bench", "peer");
const perfDir = join(root, "docs", "perf");
const PEER = `http://127.0.0.1:${PEER_PORT}`;
const EMAIL = `bench-${Date.now()}-${randomBytes(3).toString("hex")}@example.com`;
const PASSWORD = "bench password 12345";
// The four sides, in the tables' order (and the first round's).
const DOORMAN = "Doorman";
const DOORMAN_NP = "Doorman, no proxy";
const BA_WORKERD = "Better Auth (workerd + D1)";
const BA_NODE = "Better Auth (Node + SQLite)";
const SIDES = [DOORMAN, DOORMAN_NP, BA_WORKERD, BA_NODE];

function log(msg) {
  console.error(`[bench:peer] ${msg}`);
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ── the peer's install (its own node_modules, like test/compat) ──────────────────────────
function ensurePeerInstalled() {
  const need = ["better-auth", "better-sqlite3"].filter((p) => !existsSync(join(peerDir, "node_modules", p, "package.json")));
  if (need.length) {
    log(
      `installing test/bench/peer dependencies (${need.join(", ")}; better-sqlite3 builds with node-gyp when no prebuilt binary can be fetched) …`,
    );
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const lock = existsSync(join(peerDir, "package-lock.json"));
    execFileSync(npm, [lock ? "ci" : "install", "--prefix", peerDir, "--no-audit", "--no-fund"], { stdio: "inherit" });
  }
  const probe = spawnSync(process.execPath, ["-e", "new (require('better-sqlite3'))(':memory:').close()"], {
    cwd: peerDir,
    encoding: "utf8",
  });
  if (probe.status !== 0) throw new Error(`better-sqlite3 does not load in test/bench/peer:\n${probe.stderr}`);
}

// ── one hash's CPU, for each side's parameters (in this process) ────────────────────────
// Doorman: Argon2id through the worker's own libargon2 WebAssembly module (test/bench/lib/password-hash.mjs).
function doormanHash() {
  const params = doormanHashParams(root);
  const hash = doormanHasher(params);
  return { label: describeDoormanHash(params), run: (i) => hash(`bench password ${i}`.normalize("NFKC")) };
}
function peerHash() {
  // better-auth hashes with @better-auth/utils/password (its "node" build: node:crypto scrypt).
  const src = readFileSync(join(peerDir, "node_modules", "@better-auth", "utils", "dist", "password.node.mjs"), "utf8");
  const get = (name) => Number(src.match(new RegExp(`\\b${name}: (\\d+)`))?.[1]);
  const p = { N: get("N"), r: get("r"), p: get("p"), keyLen: get("dkLen"), salt: randomBytes(16).toString("hex") };
  if (![p.N, p.r, p.p, p.keyLen].every(Number.isFinite)) throw new Error("scrypt parameters not found in @better-auth/utils");
  const params = { N: p.N, r: p.r, p: p.p, maxmem: 128 * p.N * p.r * 2 };
  return {
    label: `scrypt N=2^${Math.log2(p.N)}, r=${p.r}, p=${p.p}, ${p.keyLen}-byte key, ${(128 * p.N * p.r) / 2 ** 20} MiB`,
    run: (i) => scryptSync(`bench password ${i}`.normalize("NFKC"), p.salt, p.keyLen, params),
  };
}
function hashCpuMs({ label, run }, runs = 10) {
  run(-1);
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const before = process.cpuUsage();
    run(i);
    const used = process.cpuUsage(before);
    ms.push((used.user + used.system) / 1000);
  }
  ms.sort((a, b) => a - b);
  return { label, runs, ms: (ms[(runs - 1) >> 1] + ms[runs >> 1]) / 2 };
}

// ── the peer server ───────────────────────────────────────────────────────────────────────
let peer = null;
const peerState = mkdtempSync(join(os.tmpdir(), "doorman-bench-peer-"));
// One secret for every peer process of this run, so that a restarted peer (for a profile) accepts
// the session cookie signed by the first one. Random per run: nothing outlives it. The workerd peer
// gets one of its own.
const peerSecret = randomBytes(32).toString("hex");

async function startPeer(profileName) {
  const args = profileName ? ["--cpu-prof", "--cpu-prof-dir", perfDir, "--cpu-prof-name", profileName] : [];
  const child = spawn(process.execPath, [...args, join(peerDir, "server.mjs")], {
    cwd: peerDir,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PEER_PORT: String(PEER_PORT),
      PEER_DB: join(peerState, "auth.sqlite"),
      PEER_SECRET: peerSecret,
      BETTER_AUTH_TELEMETRY: "0",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stderr.on("data", (d) => {
    out = (out + d).slice(-20000);
  });
  const ready = await new Promise((res, rej) => {
    let buffered = "";
    const timer = setTimeout(() => rej(new Error(`the peer did not start within 30 s:\n${out}`)), 30_000);
    child.stdout.on("data", (d) => {
      buffered += d;
      const line = buffered.split("\n").find((l) => l.startsWith('{"ready"'));
      if (line) {
        clearTimeout(timer);
        res(JSON.parse(line));
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      rej(new Error(`the peer exited (${code}) before it was ready:\n${out}`));
    });
  });
  peer = {
    pid: child.pid,
    ready,
    stop: () =>
      new Promise((res) => {
        if (child.exitCode !== null || child.signalCode !== null) return res();
        child.once("exit", () => res());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
      }),
  };
  return peer;
}

/** A JSON POST to a Better Auth peer at `base`, with its origin; the answer and its session cookie. */
async function peerPost(base, path, body) {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`peer ${base} POST ${path} → ${res.status}: ${text.slice(0, 500)}`);
  return { body: JSON.parse(text), cookie: res.headers.getSetCookie().map((c) => c.split(";")[0]) };
}

/** The no-proxy Doorman (startMiniflareWorker), once started. */
let noProxy = null;

function cleanup() {
  stopAllDoormen();
  stopAllPeerWorkers();
  // Miniflare kills its workerd on exit too; this also covers a bench stopped by a signal.
  for (const pid of noProxy?.workerdPids() ?? []) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
  if (peer) {
    try {
      process.kill(peer.pid, "SIGKILL");
    } catch {}
  }
  rmSync(peerState, { recursive: true, force: true });
}
// Prepended: importing wrangler (test/bench/lib/miniflare.mjs does) adds a SIGINT handler that exits at once,
// which would leave the servers running.
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.prependListener(sig, () => {
    cleanup();
    process.exit(130);
  });
}

// ── rounds ────────────────────────────────────────────────────────────────────────────────
/** The processes whose CPU counts for a side: its whole process tree, or only the pids it names (`pids()`). */
const processesOf = (target) => (target.pids ? target.pids().flatMap((pid) => processTree(pid)) : processTree(target.pid));

async function round(target, opts, duration) {
  const before = processesOf(target);
  const started = performance.now();
  const r = await cannon({ ...opts, duration });
  const wallMs = performance.now() - started;
  const cpu = cpuDelta(before, processesOf(target));
  // A failed answer is not throughput: req/s counts the successful (2xx) answers only.
  return { ...counts(r), reqPerSec: counts(r).ok / (wallMs / 1000), p50: r.latency.p50, p99: r.latency.p99, wallMs, cpu };
}

/** Warm-up on each side, then ROUNDS rounds each; the order of the sides rotates each round (A B C D, B C D A, …). */
async function operation(name, sides) {
  for (const side of sides) {
    log(`${name}, ${side.label}: ${WARMUP} s warm-up at ${side.opts.connections} connections`);
    await round(side.target(), side.opts, WARMUP);
  }
  const rounds = Object.fromEntries(sides.map((s) => [s.label, []]));
  for (let i = 0; i < ROUNDS; i++) {
    const order = [...sides.slice(i % sides.length), ...sides.slice(0, i % sides.length)];
    for (const side of order) {
      await sleep(500);
      const r = await round(side.target(), side.opts, DURATION);
      log(
        `${name}, ${side.label}, round ${i + 1}: ${r.reqPerSec.toFixed(1)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ` +
          `${r.total} answers (${r.bad} failed), CPU ${Object.entries(r.cpu)
            .map(([k, v]) => `${k} ${Math.round(v)} ms`)
            .join(", ")}`,
      );
      rounds[side.label].push(r);
    }
  }
  return rounds;
}

function summarize(rounds) {
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
  };
  const spread = (key) => ({
    median: median(rounds.map((r) => r[key])),
    min: Math.min(...rounds.map((r) => r[key])),
    max: Math.max(...rounds.map((r) => r[key])),
  });
  const total = rounds.reduce((n, r) => n + r.total, 0);
  const cpuByProcess = {};
  for (const r of rounds) for (const [k, v] of Object.entries(r.cpu)) cpuByProcess[k] = (cpuByProcess[k] ?? 0) + v;
  const cpuMs = Object.values(cpuByProcess).reduce((a, b) => a + b, 0);
  const wallMs = rounds.reduce((n, r) => n + r.wallMs, 0);
  return {
    reqPerSec: spread("reqPerSec"),
    p50: spread("p50"),
    p99: spread("p99"),
    total,
    bad: rounds.reduce((n, r) => n + r.bad, 0),
    cpuPerReq: total ? cpuMs / total : Number.NaN,
    cpuPerReqByProcess: Object.fromEntries(Object.entries(cpuByProcess).map(([k, v]) => [k, total ? v / total : Number.NaN])),
    cores: cpuMs / wallMs,
  };
}

// ── profiles of the peer (optional) ─────────────────────────────────────────────────────
async function profilePeer(name, opts) {
  await peer.stop();
  const file = `peer-${name}.cpuprofile`;
  rmSync(join(perfDir, file), { force: true });
  await startPeer(file);
  log(`profiling the peer: ${name}, ${PROFILE_SECS} s`);
  await cannon({ ...opts, duration: PROFILE_SECS });
  await peer.stop();
  const size = statSync(join(perfDir, file)).size;
  log(`wrote docs/perf/${file} (${(size / 1024).toFixed(0)} KiB)`);
  return { file, size };
}

// ── report ──────────────────────────────────────────────────────────────────────────────
function gitState() {
  try {
    const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "worker", "sdk/src", "wrangler.toml"], {
      cwd: root,
      encoding: "utf8",
    }).trim();
    return dirty ? `${head} plus uncommitted changes in ${dirty.split("\n").length} worker/SDK files` : head;
  } catch {
    return "unknown";
  }
}

/**
 * The issue-32 targets: a Doorman side's median req/s over a peer's, per operation. The first four are the
 * issue's (Doorman under `wrangler dev`); the last two put the no-proxy Doorman beside the Node peer, the
 * production-like pair (no dev proxy in front of either). goal null: shown for information, no target.
 */
const TARGETS = [
  { what: "authenticated read ≥ 1.5× Better Auth on workerd", operation: "authenticated read", side: DOORMAN, peer: BA_WORKERD, goal: 1.5 },
  {
    what: "refresh ≥ 1.5× Better Auth on workerd's `GET /api/auth/token`",
    operation: "refresh",
    side: DOORMAN,
    peer: BA_WORKERD,
    goal: 1.5,
  },
  { what: "sign-in ≥ 1× Better Auth on workerd, equal hash cost", operation: "sign-in", side: DOORMAN, peer: BA_WORKERD, goal: 1 },
  { what: "authenticated read ≥ 1× Better Auth on Node", operation: "authenticated read", side: DOORMAN, peer: BA_NODE, goal: 1 },
  {
    what: "authenticated read ≥ 1× Better Auth on Node, both without a dev proxy (Doorman no proxy)",
    operation: "authenticated read",
    side: DOORMAN_NP,
    peer: BA_NODE,
    goal: 1,
  },
  {
    what: "refresh without a dev proxy (Doorman no proxy) vs Better Auth on Node's `GET /api/auth/token`",
    operation: "refresh",
    side: DOORMAN_NP,
    peer: BA_NODE,
    goal: null,
  },
];

function targetsOf(results) {
  const find = (operation, side) => results.find((r) => r.operation === operation && r.side === side)?.s;
  return TARGETS.map((t) => {
    const d = find(t.operation, t.side);
    const p = find(t.operation, t.peer);
    const ratio = d && p ? d.reqPerSec.median / p.reqPerSec.median : Number.NaN;
    return { ...t, doorman: d, peerS: p, ratio, met: t.goal !== null && ratio >= t.goal };
  });
}

function report({ results, targets, hashes, ctx, sections }) {
  const f1 = (n) => (Number.isFinite(n) ? n.toFixed(1) : "–");
  const f2 = (n) => (Number.isFinite(n) ? n.toFixed(2) : "–");
  const range = (s, f) => `${f(s.median)} (${f(s.min)}–${f(s.max)})`;
  // The no-proxy side counts its workerd process(es) only; on the two `wrangler dev` sides "node" is wrangler's.
  const processName = (side, comm) => (side !== BA_NODE && comm === "node" ? "wrangler node" : comm);
  const rows = [];
  for (const { operation, side, s, connections, note } of results) {
    if (!s) {
      rows.push(`| ${operation} | ${side} | none | – | – | – | ${note} |`);
      continue;
    }
    const parts = Object.entries(s.cpuPerReqByProcess)
      .filter(([, v]) => v >= 0.005)
      .map(([k, v]) => `${processName(side, k)} ${f2(v)}`);
    const notes = [
      `${ROUNDS} × ${DURATION} s at ${connections} connections: ${s.total.toLocaleString("en-US")} answers, ${s.bad} failed; server busy ${f2(s.cores)} cores`,
    ];
    if (note) notes.push(note);
    rows.push(
      `| ${operation} | ${side} | ${range(s.reqPerSec, f1)} | ${range(s.p50, f1)} | ${range(s.p99, f1)} | **${f2(s.cpuPerReq)}** = ${parts.join(" + ")} | ${notes.join("; ")} |`,
    );
  }
  const verdict = (t) => (t.goal === null ? "information" : t.met ? "met" : "**not met**");
  const targetRows = targets.map(
    (t) =>
      `| ${t.what} | ${f1(t.doorman?.reqPerSec.median)} | ${f1(t.peerS?.reqPerSec.median)} | **${f2(t.ratio)}×** | ${t.goal === null ? "–" : `≥ ${t.goal}×`} | ${verdict(t)} | ${f2(t.doorman?.cpuPerReq)} / ${f2(t.peerS?.cpuPerReq)} |`,
  );
  const short = { [DOORMAN]: "Doorman", [DOORMAN_NP]: "Doorman no proxy", [BA_WORKERD]: "workerd peer", [BA_NODE]: "Node peer" };
  const rotation = [0, 1].map((i) => [...SIDES.slice(i), ...SIDES.slice(0, i)].map((label) => short[label]).join(", ")).join("; then ");
  return [
    "<!-- peer-bench:start -->",
    "## Side by side: Doorman vs Better Auth on workerd + D1 and on Node + SQLite",
    "",
    "Generated by `npm run bench:peer` (test/bench/peer/run.mjs). Four servers run at once on this machine,",
    "with autocannon in the bench process (client and servers share the CPU):",
    "",
    "- **Doorman** under `wrangler dev` as in `npm run bench` (local workerd, local D1), every rate-limit rule set to 0.",
    "  Its requests, and each of its local D1 queries, pass through wrangler's dev proxy (a node process).",
    "- **Doorman, no proxy** (test/bench/lib/miniflare.mjs): the same worker's production build (`wrangler deploy",
    "  --dry-run`) in workerd through Miniflare's own API, with wrangler.toml's bindings (local D1 with the",
    "  migrations applied, KV, the SessionDO, the queues), development mode, every rate-limit rule set to 0, a",
    "  user of its own; loaded on the worker's direct socket, so no dev proxy is in front of it and its D1",
    "  queries stay inside workerd. The email renderer is a second worker in the same workerd process. Neither",
    "  it nor the Node peer has a dev proxy: that pair is the production-like comparison.",
    "- **Better Auth on workerd + D1** (test/bench/peer/workerd/): Better Auth as a Worker, run by the same root",
    "  `wrangler dev` with local D1 (its own state folder), Doorman's compatibility date and `nodejs_compat`.",
    "  Its database is Better Auth's native D1 support (`database: env.DB`, its Kysely adapter's D1 dialect); its",
    "  schema is the SQL of Better Auth's own migration planner (workerd/schema.mjs, planned afresh each run),",
    "  applied with `wrangler d1 execute --local --file` before it starts. Its password hash is Doorman's:",
    "  `emailAndPassword.password.hash/verify` call worker/crypto/argon2id.ts itself (the same @phi-ag/argon2",
    "  WebAssembly module) with the parameters of worker/crypto/password.ts and the same PHC string, so sign-in",
    "  and sign-up pay an equal hash on both workerd sides. Doorman's per-isolate hash queue stays Doorman's: it",
    "  is how Doorman schedules its hashes, part of what its sign-in and sign-up are measured with.",
    "- **Better Auth on Node + SQLite** (test/bench/peer/server.mjs): Node's http server and better-sqlite3 (WAL),",
    "  schema made by its migration planner at start, its own password hash (scrypt).",
    "- Both peers: email and password, the `jwt` plugin (for its token endpoint; its `set-auth-jwt` header on",
    "  get-session is off, so get-session stays a plain session read), its defaults otherwise, rate limiter and",
    "  telemetry off (test/bench/peer/options.mjs), NODE_ENV=production.",
    "",
    `- Date: ${ctx.date}`,
    `- Machine: ${os.availableParallelism()} CPUs (\`nproc\`), ${os.cpus()[0]?.model?.trim() ?? "unknown CPU"}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${os.platform()} ${os.release()}`,
    `- Load average when the bench started: ${ctx.load.map((n) => n.toFixed(2)).join(" / ")} (1 / 5 / 15 min; other work on the machine skews the figures)`,
    `- Better Auth ${versionOf("better-auth", peerDir)} on both peers; Node peer: Node ${process.version}, better-sqlite3 ${versionOf("better-sqlite3", peerDir)} (SQLite ${ctx.sqlite})`,
    `- Doorman: ${ctx.git}; wrangler ${versionOf("wrangler")}, miniflare ${versionOf("miniflare")}, workerd ${versionOf("workerd")} (all three workerd sides); autocannon ${versionOf("autocannon")}`,
    `- Load: ${WARMUP} s warm-up per side, then ${ROUNDS} rounds of ${DURATION} s per side; the order of the sides rotates each round (${rotation}; …), no pipelining`,
    "",
    "### Targets (issue 32)",
    "",
    "| target | Doorman req/s | peer req/s | ratio | goal | | CPU ms/req, Doorman / peer |",
    "|---|---:|---:|---:|---:|---|---:|",
    ...targetRows,
    "",
    "Ratio: the Doorman side's median req/s over the peer's, in this run. The first four rows are the issue's",
    "targets, with Doorman under `wrangler dev`. The last two put Doorman without a dev proxy beside the Node peer,",
    "which has none either: the production-like pair (the refresh row is for information, with Better Auth's",
    "nearest operation). CPU per request (as below: whole process trees, the no-proxy Doorman's workerd process",
    "only) is given beside it: with the servers sharing two cores, it is the steadier of the two figures.",
    "",
    "### All operations",
    "",
    "| operation | side | req/s | p50 ms | p99 ms | CPU ms/req (per process) | notes |",
    "|---|---|---:|---:|---:|---|---|",
    ...rows,
    "",
    "- req/s, p50 and p99: median of the rounds, (lowest–highest round) in brackets. req/s counts successful (2xx) answers only.",
    "- CPU ms/req: utime+stime of each server's whole process tree (all threads), read from /proc before and after",
    `  each round, summed over the rounds and divided by the answers. Clock-tick resolution ${cpuResolutionMs()} ms per process per round.`,
    "  The two `wrangler dev` sides' trees are alike: wrangler's node process(es) (its dev proxy and miniflare), its esbuild",
    '  and its workerd processes; the Node peer is one node process. "Server busy" is that CPU over the rounds\' wall time.',
    "  Under `wrangler dev`, Doorman's email renderer runs in a workerd process of its own and is not counted. The",
    "  no-proxy Doorman counts only the workerd process Miniflare started (`workerdPids()`): it holds the API isolate,",
    "  the local D1 and KV, the SessionDO, the queues and their consumer, and the email renderer; no inspector is",
    "  attached to it here (its isolate profile is the no-proxy section's). Miniflare's node side is the bench process",
    "  itself, which also runs autocannon for every side, so it is not counted; requests on the direct socket and the",
    "  worker's D1 queries do not pass through it (checked: under 3 ms of its CPU per 1,000 reads or refreshes).",
    "  Under `wrangler dev`, local D1 is a fetch from the isolate, and wrangler's node process receives each one",
    "  (with its result) as inspector Network events: on both `wrangler dev` sides its CPU grows with the D1",
    "  queries per request, which production has not (nor the no-proxy Doorman).",
    "  Answers still in flight when a round ends (at most the connection count) are not counted, though the CPU",
    "  spent on them so far is: a bias of at most about half the connection count over the answers (sign-in's largest).",
    "- Authenticated read: Better Auth `GET /api/auth/get-session` with its session cookie (no cookie cache: a",
    "  database read of session and user) vs Doorman `GET /api/v1/users/me` with an access token (client access).",
    "- Sign-in: Better Auth `POST /api/auth/sign-in/email` vs Doorman `POST /api/v1/auth/password/sign-in`, the same",
    "  user and password every time; each verifies one password hash and creates a session.",
    "- Refresh: Doorman `POST /api/v1/auth/sessions/current/refresh` (a refresh token exchanged for a new access",
    "  token) vs Better Auth's nearest operation, its `jwt` plugin's `GET /api/auth/token` (the session cookie",
    "  exchanged for a signed JWT, with the plugin's defaults: EdDSA key from its `jwks` table, private key",
    "  encrypted with the secret). Better Auth has no refresh token of its own.",
    "- Sign-up: a new email per request on every side. Doorman's asks for email verification, Better Auth's (no",
    "  `sendVerificationEmail` configured) does not send one. The no-proxy Doorman's CPU per sign-up also counts the",
    "  email renderer's work done during its rounds (it shares that workerd process); the `wrangler dev` one's does not.",
    `- One hash: median CPU of ${hashes.doorman.runs} runs in the bench process (Node ${process.version}) of each hash, its`,
    `  parameters read from the code: Doorman's ${hashes.doorman.label} (worker/crypto/password.ts, the worker's libargon2`,
    `  WebAssembly module), used by both Doorman sides and by Better Auth on workerd: ${f1(hashes.doorman.ms)} ms; Better Auth's own`,
    `  ${hashes.peer.label} (@better-auth/utils, \`password.node\`, \`crypto.scryptSync\`), used by the Node peer: ${f1(hashes.peer.ms)} ms.`,
    "  Non-hash overhead = CPU per sign-in minus one hash. On the workerd sides the hash runs in workerd, not Node:",
    "  the subtraction assumes the two cost the same, and the error is the same on both workerd sides.",
    ...(ctx.profiles.length
      ? [
          `- Profiles of the Node peer's process (\`node --cpu-prof\`, a fresh process per file, ${PROFILE_SECS} s of the same load after`,
          `  start-up): ${ctx.profiles.map((p) => `docs/perf/${p.file} (${Math.round(p.size / 1024)} KiB)`).join(", ")}.`,
        ]
      : []),
    ...sections.flatMap((block) => ["", block]),
    "<!-- peer-bench:end -->",
    "",
  ].join("\n");
}

// ── main ────────────────────────────────────────────────────────────────────────────────
let baWorkerd = null;
try {
  const ctx = { date: new Date().toISOString(), load: os.loadavg(), git: gitState(), profiles: [] };
  ensurePeerInstalled();
  log("one password hash, each side's own …");
  const hashes = { doorman: hashCpuMs(doormanHash()), peer: hashCpuMs(peerHash()) };
  log(`hash CPU: Doorman's Argon2id ${hashes.doorman.ms.toFixed(1)} ms, Better Auth's scrypt ${hashes.peer.ms.toFixed(1)} ms`);

  // The no-proxy Doorman first: startMiniflareWorker names as its own the workerd processes that appeared
  // under this process while it started, so it starts before the `wrangler dev` servers (their workerd too).
  mkdirSync(join(peerState, "doorman-no-proxy"));
  noProxy = await startMiniflareWorker({ vars: allRateLimitsOff(), persistDir: join(peerState, "doorman-no-proxy"), log });
  if (!noProxy.workerdPids().length) throw new Error("the no-proxy Doorman's workerd process was not found");
  log(`Doorman, no proxy, ready on ${noProxy.url} (workerd ${noProxy.workerdPids().join(", ")})`);

  await startPeer();
  ctx.sqlite = peer.ready.sqlite;
  log(`Node peer ready on ${PEER} (pid ${peer.pid}, tables ${peer.ready.tables.join(", ")})`);
  baWorkerd = await startPeerWorker({
    port: WORKERD_PORT,
    inspectorPort: WORKERD_INSPECTOR_PORT,
    secret: randomBytes(32).toString("hex"),
    log,
  });
  const WORKERD = baWorkerd.base;
  log(`workerd peer ready on ${WORKERD} in ${baWorkerd.readySecs.toFixed(1)} s (group ${baWorkerd.pid})`);
  const doorman = await startDoorman({ port: DOORMAN_PORT, inspectorPort: INSPECTOR_PORT, vars: allRateLimitsOff(), log });
  log(`Doorman ready on ${doorman.base} in ${doorman.readySecs.toFixed(1)} s (group ${doorman.pid})`);

  // One user on each side; the tokens and cookies are checked once before any load.
  const account = { email: EMAIL, password: PASSWORD, name: "Bench" };
  const nodeCookie = (await peerPost(PEER, "/api/auth/sign-up/email", account)).cookie.join("; ");
  const workerdCookie = (await peerPost(WORKERD, "/api/auth/sign-up/email", account)).cookie.join("; ");
  const signUp = await post(doorman.api, "/auth/password/sign-up", clientHeaders, { email: EMAIL, password: PASSWORD });
  const userHeaders = { ...clientHeaders, "x-stack-access-token": signUp.access_token };
  const npSignUp = await post(noProxy.api, "/auth/password/sign-up", clientHeaders, { email: EMAIL, password: PASSWORD });
  const npUserHeaders = { ...clientHeaders, "x-stack-access-token": npSignUp.access_token };
  for (const [base, cookie] of [
    [PEER, nodeCookie],
    [WORKERD, workerdCookie],
  ]) {
    const me = await fetch(`${base}/api/auth/get-session`, { headers: { cookie } }).then((r) => r.json());
    if (me?.user?.email !== EMAIL) throw new Error(`${base}'s get-session did not answer the user: ${JSON.stringify(me)}`);
    const token = await fetch(`${base}/api/auth/token`, { headers: { cookie } }).then((r) => r.json());
    if (typeof token?.token !== "string" || token.token.split(".").length !== 3) {
      throw new Error(`${base}'s /api/auth/token did not answer a JWT: ${JSON.stringify(token)}`);
    }
  }
  for (const [api, headers] of [
    [doorman.api, userHeaders],
    [noProxy.api, npUserHeaders],
  ]) {
    const me = await fetch(`${api}/users/me`, { headers }).then((r) => r.json());
    if (me?.primary_email !== EMAIL) throw new Error(`${api}/users/me did not answer the user: ${JSON.stringify(me)}`);
  }
  log(`signed up ${EMAIL} on all four sides`);

  const json = { "content-type": "application/json" };
  const credentials = JSON.stringify({ email: EMAIL, password: PASSWORD });
  const side = (label, target, opts) => ({ label, target, opts });
  // The no-proxy Doorman's CPU: its workerd process(es) only (pids), not this process, which hosts Miniflare.
  const noProxyTarget = { pids: () => noProxy.workerdPids() };
  // doormanOpts(api, headers): the same request for both Doorman sides, each with its own base and user.
  const sides = (doormanOpts, workerdOpts, nodeOpts) => [
    side(DOORMAN, () => doorman, doormanOpts(doorman.api, { user: userHeaders, refresh: signUp.refresh_token })),
    side(DOORMAN_NP, () => noProxyTarget, doormanOpts(noProxy.api, { user: npUserHeaders, refresh: npSignUp.refresh_token })),
    side(BA_WORKERD, () => baWorkerd, workerdOpts),
    side(BA_NODE, () => peer, nodeOpts),
  ];
  const peerGet = (base, cookie, path, connections) => ({ url: `${base}${path}`, method: "GET", headers: { cookie }, connections });
  const read = sides(
    (api, u) => ({ url: `${api}/users/me`, method: "GET", headers: u.user, connections: READ_CONNECTIONS }),
    peerGet(WORKERD, workerdCookie, "/api/auth/get-session", READ_CONNECTIONS),
    peerGet(PEER, nodeCookie, "/api/auth/get-session", READ_CONNECTIONS),
  );
  const peerSignIn = (base) => ({
    url: `${base}/api/auth/sign-in/email`,
    method: "POST",
    headers: { ...json, origin: base },
    body: credentials,
    connections: SIGN_IN_CONNECTIONS,
  });
  const signIn = sides(
    (api) => ({
      url: `${api}/auth/password/sign-in`,
      method: "POST",
      headers: { ...clientHeaders, ...json },
      body: credentials,
      connections: SIGN_IN_CONNECTIONS,
    }),
    peerSignIn(WORKERD),
    peerSignIn(PEER),
  );
  const refresh = sides(
    (api, u) => ({
      url: `${api}/auth/sessions/current/refresh`,
      method: "POST",
      headers: { ...clientHeaders, ...json, "x-stack-refresh-token": u.refresh },
      body: "{}",
      connections: REFRESH_CONNECTIONS,
    }),
    peerGet(WORKERD, workerdCookie, "/api/auth/token", REFRESH_CONNECTIONS),
    peerGet(PEER, nodeCookie, "/api/auth/token", REFRESH_CONNECTIONS),
  );
  // Sign-up: a new email per request. Doorman's asks for email verification, so each one also queues
  // its verification email (the internal project's dev outbox): the answer must not wait for it.
  let seq = 0;
  const freshSignUp = (extra) => ({
    setupRequest: (req) => ({
      ...req,
      body: JSON.stringify({ email: `bench-su-${Date.now().toString(36)}-${++seq}@example.com`, password: PASSWORD, ...extra }),
    }),
  });
  const peerSignUp = (base) => ({
    url: `${base}/api/auth/sign-up/email`,
    method: "POST",
    headers: { ...json, origin: base },
    requests: [freshSignUp({ name: "Bench" })],
    connections: SIGN_UP_CONNECTIONS,
  });
  const signUpOp = sides(
    (api) => ({
      url: `${api}/auth/password/sign-up`,
      method: "POST",
      headers: { ...clientHeaders, ...json },
      requests: [freshSignUp({ verification_callback_url: "http://localhost:3000/handler/email-verification" })],
      connections: SIGN_UP_CONNECTIONS,
    }),
    peerSignUp(WORKERD),
    peerSignUp(PEER),
  );

  const measured = {
    "authenticated read": { rounds: await operation("read", read), connections: READ_CONNECTIONS },
    "sign-in": { rounds: await operation("sign-in", signIn), connections: SIGN_IN_CONNECTIONS },
    refresh: { rounds: await operation("refresh", refresh), connections: REFRESH_CONNECTIONS },
    "sign-up": { rounds: await operation("sign-up", signUpOp), connections: SIGN_UP_CONNECTIONS },
  };
  const hashOf = { [DOORMAN]: hashes.doorman, [DOORMAN_NP]: hashes.doorman, [BA_WORKERD]: hashes.doorman, [BA_NODE]: hashes.peer };
  const overhead = (s, h) => `one hash ${h.ms.toFixed(1)} ms CPU → **non-hash overhead ${(s.cpuPerReq - h.ms).toFixed(1)} ms**`;
  const notes = {
    "sign-in": (label, s) => overhead(s, hashOf[label]),
    refresh: (label) =>
      label === DOORMAN || label === DOORMAN_NP ? "" : "`GET /api/auth/token` (jwt plugin): the session cookie exchanged for a signed JWT",
    "sign-up": (label, s) =>
      [
        overhead(s, hashOf[label]),
        label === DOORMAN || label === DOORMAN_NP
          ? "with email verification: each sign-up also queues its verification email (rendered and sent by the queue consumer)"
          : "",
        label === DOORMAN_NP ? "the renders run in the counted workerd process here (under `wrangler dev`, in one not counted)" : "",
      ]
        .filter(Boolean)
        .join("; "),
  };
  const results = [];
  for (const [operationName, { rounds, connections }] of Object.entries(measured)) {
    for (const label of SIDES) {
      const s = summarize(rounds[label]);
      results.push({ operation: operationName, side: label, s, connections, note: notes[operationName]?.(label, s) || undefined });
    }
  }
  await doorman.stop();
  await noProxy.stop();
  await baWorkerd.stop();

  if (PROFILE) {
    mkdirSync(perfDir, { recursive: true });
    ctx.profiles.push(await profilePeer("read", read[SIDES.indexOf(BA_NODE)].opts));
    ctx.profiles.push(await profilePeer("sign-in", signIn[SIDES.indexOf(BA_NODE)].opts));
  }
  await peer.stop();

  const targets = targetsOf(results);
  for (const t of targets) {
    log(`target ${t.what}: ${t.ratio.toFixed(2)}× → ${t.goal === null ? "information" : t.met ? "met" : "not met"}`);
  }

  // The other parts' sections (idle dev server, no-proxy bench, D1 outage), once this bench's servers are gone.
  const { blocks: sections, failed } = await runOtherSections({ log });
  if (failed.length) process.exitCode = 1;

  const md = report({ results, targets, hashes, ctx, sections });
  console.log(md);
  if (!process.env.BENCH_NO_WRITE) {
    writeMarkedSection("peer", md);
    log("wrote its section of docs/benchmarks.md");
  }
  const broken = results.filter((r) => r.s && r.s.total - r.s.bad === 0);
  if (broken.length) {
    log(`no successful answers in: ${broken.map((r) => `${r.operation} (${r.side})`).join(", ")}`);
    process.exitCode = 1;
  }
} catch (err) {
  console.error(`[bench:peer] ${err.stack ?? err}`);
  process.exitCode = 1;
} finally {
  await peer?.stop();
  await baWorkerd?.stop();
  await noProxy?.stop();
  stopAllDoormen();
  cleanup();
}
