#!/usr/bin/env node
// `npm run bench:noproxy`: the API worker without the dev proxy, the nearest local figure to production. The worker
// (production build) runs in workerd through Miniflare's own API with local D1 (test/bench/lib/miniflare.mjs), and
// autocannon loads the worker's direct socket: `GET /users/me` and the refresh (`POST /auth/sessions/current/refresh`).
// Per request it reports:
//   - isolate CPU: busy time of the API worker's isolate from a V8 CPU profile (the inspector, 100 µs sampling), each
//     sample capped at twice the median interval (test/bench/lib/inspector.mjs summarise says why);
//   - workerd CPU: utime+stime of the whole workerd process from /proc (test/bench/lib/proc.mjs), in a run without
//     the profiler. That process also runs the local D1 (SQLite behind a Durable Object), KV, the HTTP server and
//     the runtime, so workerd − isolate is "local D1 + runtime", which production spends elsewhere or not at all;
//   - req/s (2xx only), p50 and p99 latency.
// Each scenario: a warm-up, then ROUNDS rounds of [a plain run, a profiled run]; the figures are the rounds' medians,
// and the profile of the median round is kept when NOPROXY_SAVE names a tag (docs/perf/no-proxy-<scenario>-<tag>.cpuprofile).
// Never part of `npm test`: timings are reported, not asserted. Profiler and shared-machine load inflate busy time
// (it is wall time on the isolate's thread while JavaScript runs); the load average is printed beside the figures.
// Env: NOPROXY_SECONDS (5 per run), NOPROXY_ROUNDS (3), NOPROXY_CONNECTIONS (10), NOPROXY_ONLY (users-me,refresh),
//      NOPROXY_SAVE (tag for saved profiles), NOPROXY_TOP (self-time functions printed, 15). Flag: --write puts the
//      section into docs/benchmarks.md (between the no-proxy-bench markers).
import { writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { freePort } from "../../scripts/free-port.mjs";
import { writeMarkedSection } from "./lib/doc.mjs";
import { allRateLimitsOff, clientHeaders, post, readAndRefreshRequests, root, versionOf } from "./lib/doorman.mjs";
import { inspector, summarise } from "./lib/inspector.mjs";
import { cannon, counts } from "./lib/load.mjs";
import { API_WORKER, startMiniflareWorker } from "./lib/miniflare.mjs";
import { cpuDelta, processTree } from "./lib/proc.mjs";

const num = (name, fallback) => Number(process.env[name] || fallback);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** CPU ms of the workerd processes between two snapshots. */
function workerdCpu(pids) {
  const snap = () => pids.flatMap((pid) => processTree(pid));
  const before = snap();
  return () => Object.values(cpuDelta(before, snap())).reduce((a, b) => a + b, 0);
}

/** One bounded run, plain: answers, req/s, latency, workerd CPU per answer. */
async function plainRun(server, request, seconds) {
  const cpu = workerdCpu(server.workerdPids());
  const started = performance.now();
  const r = await cannon({ ...request, duration: seconds });
  const wallMs = performance.now() - started;
  const c = counts(r);
  return { ...c, reqPerSec: c.ok / (wallMs / 1000), p50: r.latency.p50, p99: r.latency.p99, workerdMs: cpu() / Math.max(c.total, 1) };
}

/**
 * One bounded run under the profiler: the API isolate's busy time per answer (lib/inspector.mjs summarise: samples
 * capped at twice the median interval, so the local D1's time on the same thread is not folded in), the workerd CPU
 * per answer during the run (the plain run's plus the profiler's own cost), and the profile.
 */
async function profiledRun(server, cdp, request, seconds, top) {
  await cdp.send("Profiler.start");
  const cpu = workerdCpu(server.workerdPids());
  const r = await cannon({ ...request, duration: seconds });
  const workerdMs = cpu();
  const { result } = await cdp.send("Profiler.stop");
  const c = counts(r);
  const n = Math.max(c.total, 1);
  const summary = summarise(result.profile, n, top);
  return {
    ...c,
    isolateMs: summary.busyMsPerRequest,
    rawBusyMs: summary.rawBusyMsPerRequest,
    profiledWorkerdMs: workerdMs / n,
    top: summary.top,
    profile: result.profile,
  };
}

const fmt = (x, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : "–");

/**
 * Runs the bench and returns { markdown, figures }: figures[scenario] = { isolateMs, rawBusyMs, profiledWorkerdMs,
 * workerdMs, d1RuntimeMs, reqPerSec, p50, p99, requests, failed, rounds, top }, figures.loadavg = [before, after].
 */
export async function noProxyBench({ log = () => {} } = {}) {
  const SECONDS = num("NOPROXY_SECONDS", 5);
  const ROUNDS = num("NOPROXY_ROUNDS", 3);
  const CONNECTIONS = num("NOPROXY_CONNECTIONS", 10);
  const ONLY = process.env.NOPROXY_ONLY?.split(",");
  const SAVE = process.env.NOPROXY_SAVE;
  const TOP = num("NOPROXY_TOP", 15);
  const loadBefore = os.loadavg();
  const inspectorPort = await freePort();
  const server = await startMiniflareWorker({ vars: allRateLimitsOff(), inspectorPort, log });
  const figures = { loadavg: [loadBefore], connections: CONNECTIONS, seconds: SECONDS, rounds: ROUNDS };
  try {
    const email = `noproxy-${Date.now()}@example.com`;
    const user = await post(server.api, "/auth/password/sign-up", clientHeaders, { email, password: "correct horse battery" });
    // The sign-up's own background work (its events, a welcome or verification email through the queue and the
    // renderer) finishes before any measured run.
    await sleep(3000);
    const scenarios = readAndRefreshRequests(server.api, user);
    const cdp = await inspector(inspectorPort, `core:user:${API_WORKER}`);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
    for (const [name, scenario] of Object.entries(scenarios)) {
      if (ONLY && !ONLY.includes(name)) continue;
      const request = { ...scenario, connections: CONNECTIONS };
      log(`${name}: 2 s warm-up, then ${ROUNDS} × (${SECONDS} s plain + ${SECONDS} s profiled) at ${CONNECTIONS} connections`);
      await cannon({ ...request, duration: 2 });
      const plain = [];
      const profiled = [];
      for (let i = 0; i < ROUNDS; i++) {
        plain.push(await plainRun(server, request, SECONDS));
        profiled.push(await profiledRun(server, cdp, request, SECONDS, TOP));
        log(
          `${name} round ${i + 1}: ${fmt(plain[i].reqPerSec, 0)} req/s, workerd ${fmt(plain[i].workerdMs)} ms/req, isolate ${fmt(profiled[i].isolateMs)} ms/req (uncapped ${fmt(profiled[i].rawBusyMs)}; workerd ${fmt(profiled[i].profiledWorkerdMs)} when profiled), ${plain[i].bad + profiled[i].bad} failed`,
        );
      }
      const isolateMs = median(profiled.map((p) => p.isolateMs));
      const workerdMs = median(plain.map((p) => p.workerdMs));
      const mid = profiled.find((p) => p.isolateMs === isolateMs) ?? profiled[0];
      figures[name] = {
        isolateMs,
        workerdMs,
        d1RuntimeMs: workerdMs - isolateMs,
        rawBusyMs: median(profiled.map((p) => p.rawBusyMs)),
        profiledWorkerdMs: median(profiled.map((p) => p.profiledWorkerdMs)),
        reqPerSec: median(plain.map((p) => p.reqPerSec)),
        p50: median(plain.map((p) => p.p50)),
        p99: median(plain.map((p) => p.p99)),
        requests: plain.reduce((a, p) => a + p.total, 0) + profiled.reduce((a, p) => a + p.total, 0),
        failed: plain.reduce((a, p) => a + p.bad, 0) + profiled.reduce((a, p) => a + p.bad, 0),
        rounds: {
          isolateMs: profiled.map((p) => p.isolateMs),
          rawBusyMs: profiled.map((p) => p.rawBusyMs),
          workerdMs: plain.map((p) => p.workerdMs),
          reqPerSec: plain.map((p) => p.reqPerSec),
        },
        top: mid.top,
      };
      if (SAVE) {
        const file = join(root, "docs", "perf", `no-proxy-${name}-${SAVE}.cpuprofile`);
        writeFileSync(file, JSON.stringify(mid.profile));
        figures[name].profileFile = file;
      }
    }
    cdp.close();
  } finally {
    await server.stop();
  }
  figures.loadavg.push(os.loadavg());
  return { markdown: markdownOf(figures), figures };
}

function markdownOf(f) {
  const load = (l) => l.map((x) => x.toFixed(2)).join(" ");
  const rows = [
    ["users-me", "`GET /users/me`"],
    ["refresh", "`POST /auth/sessions/current/refresh`"],
  ]
    .filter(([key]) => f[key])
    .map(([key, label]) => {
      const s = f[key];
      return `| ${label} | **${fmt(s.isolateMs)}** | ${fmt(s.workerdMs)} | ${fmt(s.d1RuntimeMs)} | ${fmt(s.reqPerSec, 0)} | ${s.p50} / ${s.p99} | ${s.failed} |`;
    });
  return [
    "<!-- no-proxy-bench:start -->",
    "## No-proxy bench (Miniflare, no wrangler proxy)",
    "",
    `\`npm run bench:noproxy\`: the production build of the API worker in workerd through Miniflare ${versionOf("miniflare")}'s own API, local D1, loaded on its direct socket by autocannon (${f.connections} connections); medians of ${f.rounds} rounds of ${f.seconds} s. Isolate CPU is the API isolate's busy time in a V8 CPU profile (100 µs sampling; each sample counts for at most twice the median interval, because V8 folds the time the thread spends in other isolates, such as the local D1's Durable Object, into the isolate's next sample). Workerd CPU is the whole workerd process from /proc in the unprofiled runs; it also runs the local D1, KV and the HTTP server, so workerd − isolate is local D1 + runtime, which the worker does not spend in production. Load average ${load(f.loadavg[0])} before, ${load(f.loadavg[1])} after (2 cores).`,
    "",
    "| operation | isolate CPU ms/req | workerd CPU ms/req | local D1 + runtime ms/req | req/s | p50 / p99 ms | failed |",
    "|---|---|---|---|---|---|---|",
    ...rows,
    "<!-- no-proxy-bench:end -->",
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const log = (msg) => console.error(`[bench:noproxy] ${msg}`);
  const { markdown, figures } = await noProxyBench({ log });
  for (const name of ["users-me", "refresh"]) {
    if (!figures[name]) continue;
    console.log(`\n${name}: top self time per request (median round)`);
    for (const t of figures[name].top) console.log(`  ${t.usPerRequest.toFixed(0).padStart(6)} µs  ${t.name}`);
    if (figures[name].profileFile) console.log(`  profile: ${figures[name].profileFile}`);
  }
  console.log(`\n${markdown}`);
  if (process.argv.includes("--write")) {
    writeMarkedSection("no-proxy", markdown);
    log("wrote its section of docs/benchmarks.md");
  }
}
