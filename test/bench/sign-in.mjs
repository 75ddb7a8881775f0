#!/usr/bin/env node
// `npm run bench:sign-in`: where a password sign-in's time goes, without the dev proxy (issue 32, part E). The
// production build of the API worker runs in workerd through Miniflare's own API (test/bench/lib/miniflare.mjs),
// every rate-limit rule off (as bench:peer runs Doorman), and the bench reports per sign-in:
//   - D1 round trips and statements, from a run whose D1 is the counting wrapper test/bench/lib/d1-counter.mjs:
//     SIGN_IN_COUNT sign-ins one at a time, each followed by a pause so its deferred work (deps.defer) lands too; a
//     line is "before" when it reached this process before the response did (deferred work often starts before);
//   - isolate CPU: the API isolate's busy time in a V8 CPU profile (100 µs sampling), corrected by the share of its
//     runnable time workerd's thread actually ran (/proc schedstat: the machine is shared), and the same minus the
//     password hash (samples under argon2idRaw or in WebAssembly), the "non-hash" figure bench:peer compares;
//   - workerd CPU per sign-in (/proc, whole process: local D1 and runtime included) and req/s, in unprofiled runs.
// Several short rounds; the medians are printed with the load average. Never part of `npm test`.
// Env: SIGN_IN_SECONDS (4 per run), SIGN_IN_ROUNDS (3), SIGN_IN_CONNECTIONS (4), SIGN_IN_COUNT (6),
//      SIGN_IN_ONLY (count,cpu), SIGN_IN_SQL=1 prints each round trip's SQL of one sign-in, SIGN_IN_INCLUSIVE=1 the
//      functions with the most inclusive time, SIGN_IN_SAVE=<path prefix> keeps each round's profile (.cpuprofile).
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { freePort } from "../../scripts/free-port.mjs";
import { allRateLimitsOff, clientHeaders, post, root } from "./lib/doorman.mjs";
import { inspector } from "./lib/inspector.mjs";
import { cannon, counts } from "./lib/load.mjs";
import { API_WORKER, startMiniflareWorker } from "./lib/miniflare.mjs";
import { cpuDelta, processTree } from "./lib/proc.mjs";

const num = (name, fallback) => Number(process.env[name] || fallback);
const SECONDS = num("SIGN_IN_SECONDS", 4);
const ROUNDS = num("SIGN_IN_ROUNDS", 3);
const CONNECTIONS = num("SIGN_IN_CONNECTIONS", 4);
const COUNT = num("SIGN_IN_COUNT", 6);
const ONLY = process.env.SIGN_IN_ONLY?.split(",");
const PASSWORD = "correct horse battery";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (x, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : "–");
const log = (msg) => console.error(`[bench:sign-in] ${msg}`);

function signInRequest(api, email) {
  return {
    url: `${api}/auth/password/sign-in`,
    method: "POST",
    headers: { ...clientHeaders, "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD }),
  };
}

/** Round trips and statements of one sign-in at a time, through the counting D1 wrapper. */
async function countRun() {
  const lines = [];
  const server = await startMiniflareWorker({
    vars: allRateLimitsOff(),
    wrapDb: join(root, "test/bench/lib/d1-counter.mjs"),
    log: (msg) => {
      const at = msg.indexOf("[d1-count] ");
      if (at >= 0) lines.push({ at: performance.now(), text: msg.slice(at + 11) });
      else if (!msg.startsWith("workerd: ")) log(msg);
    },
  });
  try {
    const email = `sign-in-count-${Date.now()}@example.com`;
    await post(server.api, "/auth/password/sign-up", clientHeaders, { email, password: PASSWORD });
    await sleep(2000);
    const request = signInRequest(server.api, email);
    const per = [];
    for (let i = 0; i < COUNT + 1; i++) {
      lines.length = 0;
      const res = await fetch(request.url, { method: "POST", headers: request.headers, body: request.body });
      const answeredAt = performance.now();
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`sign-in answered ${res.status}`);
      await sleep(600);
      const seen = lines.map((l) => {
        const [kind, n, ...sql] = l.text.split(" ");
        return { before: l.at <= answeredAt, kind, statements: Number(n), sql: sql.join(" ") };
      });
      if (i === 0) continue; // the first sign-in warms the isolate's caches (project, keys)
      per.push(seen);
    }
    const tally = (seen, before) => {
      const part = seen.filter((s) => s.before === before);
      return { roundTrips: part.length, statements: part.reduce((a, s) => a + s.statements, 0) };
    };
    const before = per.map((s) => tally(s, true));
    const after = per.map((s) => tally(s, false));
    const result = {
      before: { roundTrips: median(before.map((b) => b.roundTrips)), statements: median(before.map((b) => b.statements)) },
      after: { roundTrips: median(after.map((b) => b.roundTrips)), statements: median(after.map((b) => b.statements)) },
      sample: per[per.length - 1],
    };
    return result;
  } finally {
    await server.stop();
  }
}

/** Time on a CPU and time waiting for one, in ms, of workerd's main thread (/proc/<pid>/task/<pid>/schedstat). */
function schedstat(pid) {
  try {
    const [onCpu, waiting] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ").map(Number);
    return { onCpuMs: onCpu / 1e6, waitingMs: waiting / 1e6 };
  } catch {
    return { onCpuMs: 0, waitingMs: 0 };
  }
}

function workerdCpu(pids) {
  const snap = () => pids.flatMap((pid) => processTree(pid));
  const before = snap();
  return () => Object.values(cpuDelta(before, snap())).reduce((a, b) => a + b, 0);
}

const HASH_FUNCTION = "argon2idRaw";
const isWasm = (frame) => /wasm/i.test(frame.url) || frame.functionName.startsWith("$") || frame.functionName.startsWith("wasm-function");

/** Busy ms of a profile, the part of it spent hashing, and the top self-time functions outside the hash. */
function split(profile, topN = 12) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const hashing = new Map();
  const inHash = (id) => {
    if (hashing.has(id)) return hashing.get(id);
    const frame = byId.get(id).callFrame;
    const p = parent.get(id);
    const yes = frame.functionName === HASH_FUNCTION || isWasm(frame) || (p !== undefined && inHash(p));
    hashing.set(id, yes);
    return yes;
  };
  let busy = 0;
  let hash = 0;
  const self = new Map();
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id).callFrame;
    if (frame.functionName === "(idle)") return;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    busy += ms;
    if (inHash(id)) {
      hash += ms;
      return;
    }
    const where = frame.url ? `${frame.url.split("/").slice(-1)[0]}:${frame.lineNumber + 1}` : "";
    const key = `${frame.functionName || "(anonymous)"} ${where}`.trim();
    self.set(key, (self.get(key) ?? 0) + ms);
  });
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, topN);
  // Inclusive time outside the hash: each function once per sample, however deep it recurs.
  const total = new Map();
  profile.samples.forEach((id, i) => {
    if (byId.get(id).callFrame.functionName === "(idle)" || inHash(id)) return;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const f = byId.get(at).callFrame;
      if (!f.url || f.url.startsWith("cloudflare-internal")) continue;
      seen.add(`${f.functionName || "(anonymous)"} ${f.url.split("/").slice(-1)[0]}:${f.lineNumber + 1}`);
    }
    for (const key of seen) total.set(key, (total.get(key) ?? 0) + ms);
  });
  const inclusive = [...total].sort((a, b) => b[1] - a[1]).slice(0, topN * 3);
  return { busy, hash, top, inclusive };
}

/** Rounds of [plain run, profiled run] of concurrent sign-ins. */
async function cpuRun() {
  const inspectorPort = await freePort();
  const server = await startMiniflareWorker({ vars: allRateLimitsOff(), inspectorPort, log: (m) => !m.startsWith("workerd") && log(m) });
  try {
    const email = `sign-in-cpu-${Date.now()}@example.com`;
    await post(server.api, "/auth/password/sign-up", clientHeaders, { email, password: PASSWORD });
    await sleep(2000);
    const request = { ...signInRequest(server.api, email), connections: CONNECTIONS };
    const cdp = await inspector(inspectorPort, `core:user:${API_WORKER}`);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
    await cannon({ ...request, duration: 2 });
    const rounds = [];
    for (let i = 0; i < ROUNDS; i++) {
      const cpu = workerdCpu(server.workerdPids());
      const started = performance.now();
      const plain = counts(await cannon({ ...request, duration: SECONDS }));
      const wallMs = performance.now() - started;
      const workerdMs = cpu() / Math.max(plain.total, 1);
      const [pid] = server.workerdPids();
      await cdp.send("Profiler.start");
      const s0 = schedstat(pid);
      const profiled = counts(await cannon({ ...request, duration: SECONDS }));
      const s1 = schedstat(pid);
      const { result } = await cdp.send("Profiler.stop");
      const onCpu = s1.onCpuMs - s0.onCpuMs;
      const ran = onCpu > 0 ? onCpu / (onCpu + (s1.waitingMs - s0.waitingMs)) : 1;
      const n = Math.max(profiled.total, 1);
      const { busy, hash, top, inclusive } = split(result.profile);
      if (process.env.SIGN_IN_SAVE) writeFileSync(`${process.env.SIGN_IN_SAVE}-${i + 1}.cpuprofile`, JSON.stringify(result.profile));
      const round = {
        reqPerSec: plain.ok / (wallMs / 1000),
        workerdMs,
        isolateMs: (busy / n) * ran,
        hashMs: (hash / n) * ran,
        nonHashMs: ((busy - hash) / n) * ran,
        ran,
        failed: plain.bad + profiled.bad,
        top: top.map(([name, ms]) => ({ name, usPerRequest: (ms / n) * ran * 1000 })),
        inclusive: inclusive.map(([name, ms]) => ({ name, usPerRequest: (ms / n) * ran * 1000 })),
      };
      rounds.push(round);
      log(
        `round ${i + 1}: ${fmt(round.reqPerSec, 1)} req/s, workerd ${fmt(workerdMs)} ms, isolate ${fmt(round.isolateMs)} ms = hash ${fmt(round.hashMs)} + non-hash ${fmt(round.nonHashMs)} (ran ${fmt(ran * 100, 0)}%), ${round.failed} failed`,
      );
    }
    cdp.close();
    const pick = (key) => median(rounds.map((r) => r[key]));
    const nonHashMs = pick("nonHashMs");
    const mid = rounds.find((r) => r.nonHashMs === nonHashMs) ?? rounds[0];
    return {
      reqPerSec: pick("reqPerSec"),
      workerdMs: pick("workerdMs"),
      isolateMs: pick("isolateMs"),
      hashMs: pick("hashMs"),
      nonHashMs,
      failed: rounds.reduce((a, r) => a + r.failed, 0),
      rounds,
      top: mid.top,
      inclusive: mid.inclusive,
    };
  } finally {
    await server.stop();
  }
}

/** Runs the bench; resolves with { count, cpu, loadavg: [before, after] }. */
export async function signInBench() {
  const loadavg = [os.loadavg()];
  const out = { loadavg };
  if (!ONLY || ONLY.includes("count")) out.count = await countRun();
  if (!ONLY || ONLY.includes("cpu")) out.cpu = await cpuRun();
  loadavg.push(os.loadavg());
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await signInBench();
  const load = (l) => l.map((x) => x.toFixed(2)).join(" ");
  console.log(
    `\nPOST /auth/password/sign-in, no proxy, rate limits off. Load average ${load(r.loadavg[0])} before, ${load(r.loadavg[1])} after.`,
  );
  if (r.count) {
    const { before, after, sample } = r.count;
    console.log(
      `D1 per sign-in (median of ${COUNT}): ${before.roundTrips + after.roundTrips} round trips, ${before.statements + after.statements} statements`,
    );
    // Deferred work (deps.defer) starts as soon as it is deferred, often before the answer: the split is by arrival only.
    console.log(
      `  issued before the answer arrived: ${before.roundTrips} round trips, ${before.statements} statements; after: ${after.roundTrips}, ${after.statements}.`,
    );
    if (process.env.SIGN_IN_SQL)
      for (const s of sample) console.log(`  ${s.before ? "before" : "after "} ${s.kind} ${s.statements}: ${s.sql}`);
  }
  if (r.cpu) {
    const c = r.cpu;
    console.log(
      `CPU per sign-in (median of ${ROUNDS} rounds, ${CONNECTIONS} connections): isolate ${fmt(c.isolateMs)} ms = hash ${fmt(c.hashMs)} + non-hash ${fmt(c.nonHashMs)}; workerd ${fmt(c.workerdMs)} ms; ${fmt(c.reqPerSec, 1)} req/s; ${c.failed} failed`,
    );
    console.log(`  non-hash rounds: ${c.rounds.map((x) => fmt(x.nonHashMs)).join(", ")}`);
    console.log("  top self time outside the hash (µs per sign-in, median round):");
    for (const t of c.top) console.log(`  ${t.usPerRequest.toFixed(0).padStart(6)}  ${t.name}`);
    if (process.env.SIGN_IN_INCLUSIVE) {
      console.log("  inclusive time outside the hash (µs per sign-in, median round):");
      for (const t of c.inclusive) console.log(`  ${t.usPerRequest.toFixed(0).padStart(6)}  ${t.name}`);
    }
  }
}
