#!/usr/bin/env node
// `npm run bench:idle`: what `npm start` costs while nobody uses it, and whether it stays up under load.
//   1. starts `npm start` (scripts/start.mjs) on a free port with its own state folder (a temp dir), and
//      waits until it is ready (the banner printed, the first cron run answered);
//   2. idle: utime+stime (/proc) of every process of its tree (npm, start.mjs, wrangler, workerd, esbuild,
//      the email renderer's own wrangler and workerd) over `seconds`, summed per process role;
//   3. load check: a sign-up for a real access token, then autocannon (32 connections, 10 s each) at
//      GET /api/v1/users/me, GET /api/v1/health and POST /api/v1/auth/sessions/current/refresh, counting
//      non-2xx answers and wrangler's `503 Your worker restarted mid-request` (a watcher swapping the
//      worker under load; wrangler retries a GET or HEAD cut off that way, never a POST, so the POST
//      is where a swap shows);
//   4. stops it (SIGINT, as Ctrl+C) and checks that no process of the tree is left.
// Never a pass/fail test: the machine may be busy (the load average is reported beside the figures).
// Also imported by test/bench/peer/run.mjs: measureIdle({ seconds, log }) → { markdown, … }.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { freePort } from "../../scripts/free-port.mjs";
import { clientHeaders, root } from "./lib/doorman.mjs";
import { cannon } from "./lib/load.mjs";
import { cpuResolutionMs, processTree } from "./lib/proc.mjs";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const LOAD = { connections: 32, duration: 10 };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

function cmdline(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * A readable role per process: the email renderer's tree (its wrangler's config is
 * worker/email-render/…), the web + API server's tree (the other wrangler), or npm / start.mjs itself.
 */
function roleOf(pid, tree) {
  const byPid = new Map(tree.map((p) => [p.pid, p]));
  for (let p = byPid.get(pid); p; p = byPid.get(p.ppid)) {
    const args = cmdline(p.pid).join(" ");
    if (/wrangler/.test(args) && /email-render|renderer/.test(args)) return "email renderer";
    if (/wrangler(-dist\/cli\.js|\s)/.test(args) && /\bdev\b/.test(args)) return "web + API";
  }
  const args = cmdline(pid).join(" ");
  if (/start\.mjs/.test(args)) return "start.mjs";
  if (/npm/.test(args)) return "npm";
  return "other";
}

/** The tree's processes with a name (role: command), alive now. */
function namedTree(rootPid) {
  const tree = processTree(rootPid);
  return tree.map((p) => ({ ...p, name: `${roleOf(p.pid, tree)}: ${p.comm}` }));
}

/** A pid is gone when /proc has no entry or it is a zombie waiting for its parent. */
function alive(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** A new user of the internal project: its access and refresh tokens. */
async function signUp(api) {
  const email = `idle-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const res = await fetch(`${api}/auth/password/sign-up`, {
    method: "POST",
    headers: { ...clientHeaders, "content-type": "application/json" },
    body: JSON.stringify({ email, password: "idle bench password 12345" }),
  });
  const body = await res.json().catch(() => ({}));
  if (!res.ok || typeof body.access_token !== "string" || typeof body.refresh_token !== "string")
    throw new Error(`sign-up answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return { accessToken: body.access_token, refreshToken: body.refresh_token };
}

/** One autocannon run; counts answers, non-2xx, and the 503s whose body is wrangler's "restarted mid-request". */
async function loadRun(method, url, headers, body) {
  let restarted503 = 0;
  let status503 = 0;
  let firstFailure = "";
  const result = await cannon({
    url,
    ...LOAD,
    requests: [
      {
        method,
        headers,
        body,
        onResponse: (status, body) => {
          if (status >= 300 && !firstFailure) firstFailure = `${status} ${String(body).slice(0, 200)}`;
          if (status !== 503) return;
          status503++;
          if (/restarted mid-request/i.test(String(body))) restarted503++;
        },
      },
    ],
  });
  return {
    method,
    url,
    requests: result["2xx"] + result.non2xx,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    status503,
    restarted503,
    firstFailure,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, v]) => [code, v.count])),
    rps: result.requests.average,
  };
}

/**
 * Starts `npm start`, measures its idle CPU over `seconds`, runs the load check, stops it.
 * @param {{ seconds?: number, log?: (msg: string) => void, command?: string[] }} [options]
 *   command: what to start (default `npm start`; e.g. `["npm", "start", "--", "--watch"]` for the watch mode)
 */
export async function measureIdle({ seconds = 60, log = () => {}, command = [npm, "start"] } = {}) {
  const port = await freePort();
  const stateDir = mkdtempSync(join(os.tmpdir(), "doorman-idle-"));
  const origin = `http://127.0.0.1:${port}`;
  const api = `${origin}/api/v1`;
  log(`${command.join(" ")} on ${origin}, state in ${stateDir}`);
  const started = Date.now();
  // Its own process group, so a stop reaches npm, start.mjs and what they started; stdin ignored (no TTY).
  const child = spawn(command[0], command.slice(1), {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, PORT: String(port), DOORMAN_STATE_DIR: stateDir, FORCE_COLOR: "0" },
  });
  let out = "";
  const keep = (d) => {
    out += d;
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const seen = new Map(); // every pid of the tree while it ran: checked again after the stop
  const remember = () => {
    for (const p of namedTree(child.pid)) seen.set(p.pid, p.name);
  };

  const stop = async () => {
    remember();
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      try {
        process.kill(-child.pid, "SIGINT"); // as Ctrl+C in a terminal: npm and start.mjs both get it
      } catch {}
      await Promise.race([exited, sleep(15_000)]);
    }
    // Whatever is still there after start.mjs's own shutdown is a stray: report it, then end it.
    let stray = [];
    for (let i = 0; i < 20; i++) {
      stray = [...seen].filter(([pid]) => alive(pid));
      if (!stray.length) break;
      await sleep(250);
    }
    for (const [pid] of stray) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {}
    }
    rmSync(stateDir, { recursive: true, force: true });
    return stray.map(([pid, name]) => `${name} (pid ${pid})`);
  };

  try {
    // Ready: the banner printed (health answered, dev keys checked), then the first cron run answered.
    const deadline = Date.now() + 300_000;
    while (!/Doorman is running/.test(out)) {
      if (child.exitCode !== null) throw new Error(`${command.join(" ")} exited (${child.exitCode}):\n${out.slice(-4000)}`);
      if (Date.now() > deadline) throw new Error(`${command.join(" ")} was not ready within 300 s:\n${out.slice(-4000)}`);
      remember();
      await sleep(250);
    }
    const readyMs = Date.now() - started;
    const health = await fetch(`${api}/health`);
    if (!health.ok) throw new Error(`GET /api/v1/health answered ${health.status} after the banner`);
    for (let i = 0; i < 40 && !/cron "17 3 \* \* \*"/.test(out); i++) await sleep(250);
    await sleep(3000); // let the start-up's last writes and GC settle
    log(`ready in ${(readyMs / 1000).toFixed(1)} s; measuring ${seconds} s idle (load average ${loadAverage()})`);

    remember();
    const mark = out.length; // reloads and restarts are counted from here on (idle and load)
    const before = namedTree(child.pid);
    const loadBefore = loadAverage();
    const t0 = process.hrtime.bigint();
    await sleep(seconds * 1000);
    const after = namedTree(child.pid);
    const elapsed = Number(process.hrtime.bigint() - t0) / 1e9;
    const loadAfter = loadAverage();
    remember();

    const was = new Map(before.map((p) => [p.pid, p.cpuMs]));
    const byName = new Map();
    for (const p of after) {
      const row = byName.get(p.name) ?? { name: p.name, cpuMs: 0, count: 0 };
      row.cpuMs += p.cpuMs - (was.get(p.pid) ?? 0);
      row.count++;
      byName.set(p.name, row);
    }
    const processes = [...byName.values()].sort((a, b) => b.cpuMs - a.cpuMs);
    const totalMs = processes.reduce((s, p) => s + p.cpuMs, 0);
    const cpuPctOfCore = (totalMs / (elapsed * 1000)) * 100;
    log(`idle: ${totalMs.toFixed(0)} ms of CPU in ${elapsed.toFixed(1)} s = ${cpuPctOfCore.toFixed(2)}% of one core`);

    log(`load check: ${LOAD.connections} connections, ${LOAD.duration} s each at /users/me, /health and the refresh`);
    const { accessToken, refreshToken } = await signUp(api);
    const runs = [
      await loadRun("GET", `${api}/users/me`, { ...clientHeaders, "x-stack-access-token": accessToken }),
      await loadRun("GET", `${api}/health`, {}),
      await loadRun(
        "POST",
        `${api}/auth/sessions/current/refresh`,
        { ...clientHeaders, "x-stack-refresh-token": refreshToken, "content-type": "application/json" },
        "{}",
      ),
    ];
    const logRestarts = (out.slice(mark).match(/restarted mid-request/gi) ?? []).length;
    const loadCheck = {
      requests: runs.reduce((s, r) => s + r.requests, 0),
      non2xx: runs.reduce((s, r) => s + r.non2xx, 0),
      restarted503: runs.reduce((s, r) => s + r.restarted503, 0),
      errors: runs.reduce((s, r) => s + r.errors, 0),
      runs,
    };
    const reloads = (out.slice(mark).match(/Reloading local server/gi) ?? []).length;
    const stray = await stop();
    if (stray.length) log(`stray processes after the stop (killed): ${stray.join(", ")}`);

    const result = {
      command: command.join(" "),
      cpuPctOfCore,
      seconds: elapsed,
      processes: processes.map(({ name, cpuMs, count }) => ({ name, cpuMs: Math.round(cpuMs), count })),
      readyMs,
      loadCheck,
      loadAverage: { before: loadBefore, after: loadAfter },
      reloads,
      logRestarts,
      stray,
    };
    result.markdown = markdownOf(result);
    return result;
  } catch (err) {
    const stray = await stop();
    if (stray.length) log(`stray processes after the stop (killed): ${stray.join(", ")}`);
    throw err;
  }
}

const codesOf = (run) =>
  Object.entries(run.statusCodes)
    .filter(([code]) => !code.startsWith("2"))
    .map(([code, n]) => `${n}× ${code}`)
    .join(", ");

function markdownOf(r) {
  const rows = r.processes.map((p) => `| ${p.name}${p.count > 1 ? ` (×${p.count})` : ""} | ${p.cpuMs} |`);
  const lc = r.loadCheck;
  const runRows = lc.runs.map(
    (x) =>
      `| ${x.method} ${new URL(x.url).pathname} | ${x.requests} | ${Math.round(x.rps)} | ${x.non2xx}${x.non2xx ? ` (${codesOf(x)})` : ""} | ${x.status503} | ${x.restarted503} |`,
  );
  return [
    `### \`${r.command}\` idle`,
    "",
    `\`${r.command}\` on a free port with a fresh state folder, ready in ${(r.readyMs / 1000).toFixed(1)} s (migrations, builds, servers).`,
    `Idle CPU (utime+stime from /proc, every process of its tree) over ${r.seconds.toFixed(0)} s with no requests:`,
    `**${r.cpuPctOfCore.toFixed(2)}% of one core** (target < 1%: ${r.cpuPctOfCore < 1 ? "met" : "not met"}). Load average ${r.loadAverage.before} → ${r.loadAverage.after};`,
    `CPU figures resolve to ${cpuResolutionMs()} ms per process.`,
    "",
    "| process (role: command) | CPU ms |",
    "|---|---:|",
    ...rows,
    "",
    `Then ${LOAD.connections} connections for ${LOAD.duration} s at each path (autocannon), with the tokens of a real sign-up`,
    "(wrangler retries a GET cut off by a worker restart, so a restart shows as a 503 on the POST):",
    "",
    "| path | answers | req/s | non-2xx | 503 | 503 restarted mid-request |",
    "|---|---:|---:|---:|---:|---:|",
    ...runRows,
    "",
    `Worker reloads logged while idle and under load: ${r.reloads}; stray processes after Ctrl+C: ${r.stray.length ? r.stray.join(", ") : "none"}.`,
  ].join("\n");
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const seconds = Number(process.env.IDLE_SECONDS || 60);
  const log = (msg) => console.log(`[idle] ${msg}`);
  // IDLE_COMMAND: another command line to measure the same way, e.g. "npm start -- --watch".
  const command = process.env.IDLE_COMMAND ? process.env.IDLE_COMMAND.split(" ").filter(Boolean) : undefined;
  measureIdle({ seconds, log, command })
    .then((r) => {
      console.log(`\n${r.markdown}\n`);
      process.exit(0);
    })
    .catch((err) => {
      console.error(`[idle] ${err.stack || err.message}`);
      process.exit(1);
    });
}
