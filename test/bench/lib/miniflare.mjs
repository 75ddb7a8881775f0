// The API worker in workerd through Miniflare's own API, with no wrangler dev proxy in front: the benches
// that want production-like figures (test/bench/no-proxy.mjs, test/bench/outage.mjs) load its direct URL.
// - The worker is built once per process as `wrangler deploy --dry-run` builds it for production (the same
//   esbuild options, wasm modules beside it), not as `wrangler dev` does.
// - Bindings are wrangler.toml's (wrangler's unstable_getMiniflareWorkerOptions): local D1 with the migrations
//   applied (`wrangler d1 migrations apply --local --persist-to`, so the state folder is wrangler's layout), KV,
//   the SessionDO, both queues (producers and consumers), ENVIRONMENT=development plus the caller's vars.
// - The email renderer (worker/email-render/wrangler.toml) runs as a second worker in the same Miniflare, reached
//   through the EMAIL_RENDERER service binding as in production. It shares the workerd process (and its /proc
//   CPU) but not the API's isolate, so the isolate profile never holds a render.
// - wrapDb: an ES module (one file, no imports) whose default export `(env) => D1-like` becomes the worker's DB
//   through Miniflare's wrappedBindings; its env holds the real D1 as INNER and a KV namespace FAULT_FLAGS
//   (write it from the bench with `mf.getKVNamespace("FAULT_FLAGS", WRAPPER_WORKER)`). The wrapper runs in the
//   API's isolate, as a D1 client library would. test/bench/lib/d1-passthrough.mjs is the smallest one.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import { join, resolve } from "node:path";
import { Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { root } from "./doorman.mjs";
import { processTree } from "./proc.mjs";

const wrangler = join(root, "node_modules", ".bin", "wrangler");
const cliEnv = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", CI: "true" };

/** Worker names inside the Miniflare (the API's is wrangler.toml's `name`). */
export const API_WORKER = "doorman";
export const RENDERER_WORKER = "doorman-email-renderer";
export const WRAPPER_WORKER = "d1-wrapper";

let builds = null;

/** `wrangler deploy --dry-run` of the API and the renderer into a temp folder, once per process. */
function buildOnce(log) {
  if (!builds) {
    const outDir = mkdtempSync(join(os.tmpdir(), "doorman-mf-build-"));
    // Registered first, so that a failed build (e.g. the email sandbox not generated yet) leaves no folder behind.
    process.once("exit", () => rmSync(outDir, { recursive: true, force: true }));
    const build = (args, dir) => {
      execFileSync(wrangler, ["deploy", "--dry-run", "--outdir", dir, ...args], { cwd: root, env: cliEnv, stdio: "pipe" });
      return dir;
    };
    const started = Date.now();
    builds = {
      outDir,
      api: build([], join(outDir, "api")),
      renderer: build(["-c", "worker/email-render/wrangler.toml"], join(outDir, "renderer")),
    };
    log(`built the API and the email renderer in ${((Date.now() - started) / 1000).toFixed(1)} s (${outDir})`);
  }
  return builds;
}

/** The one .js module of a `wrangler deploy --dry-run` output folder. */
function entryOf(dir) {
  const js = readdirSync(dir).filter((f) => f.endsWith(".js"));
  if (js.length !== 1) throw new Error(`expected one .js module in ${dir}, found ${js.join(", ") || "none"}`);
  return join(dir, js[0]);
}

/**
 * The workerd processes that are direct children of this node process right now (Miniflare spawns its own; a
 * `wrangler dev` this process started has its workerd one level down, so it is never taken for Miniflare's).
 */
function workerdChildren() {
  return processTree(process.pid)
    .filter((p) => p.comm === "workerd" && p.ppid === process.pid)
    .map((p) => p.pid);
}

/** Sends workerd's output to `log` line by line (console.log of the worker, its warnings). */
function pipeLines(stream, log, prefix) {
  let buffered = "";
  stream.on("data", (chunk) => {
    buffered += chunk;
    const lines = buffered.split("\n");
    buffered = lines.pop();
    for (const line of lines) if (line.trim()) log(`${prefix}${line}`);
  });
}

/**
 * Starts the API worker in Miniflare. Resolves once /api/v1/health answers on the direct URL.
 * @param {{ vars?: Record<string, string>, inspectorPort?: number, wrapDb?: string, persistDir?: string,
 *   log?: (msg: string) => void }} [options]
 *   vars: extra [vars] (e.g. allRateLimitsOff()); inspectorPort: workerd's V8 inspector (test/bench/lib/inspector.mjs
 *   picks the API's isolate); wrapDb: path of the D1 wrapper module (above); persistDir: the state folder (wrangler's
 *   `--persist-to` layout; default a temp folder removed by stop()); log: progress and workerd's output.
 * @returns {Promise<{ url: string, api: string, mf: Miniflare, workerdPids: () => number[], stop: () => Promise<void> }>}
 *   url: the API worker's direct socket (no entry worker, no proxy), api: url + "/api/v1".
 */
export async function startMiniflareWorker({ vars = {}, inspectorPort, wrapDb, persistDir, log = () => {} } = {}) {
  const built = buildOnce(log);
  const ownState = persistDir === undefined;
  const stateDir = persistDir ?? mkdtempSync(join(os.tmpdir(), "doorman-mf-state-"));
  log(`applying migrations into ${stateDir}`);
  execFileSync(wrangler, ["d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir], {
    cwd: root,
    env: cliEnv,
    stdio: "pipe",
  });

  const { workerOptions } = unstable_getMiniflareWorkerOptions(join(root, "wrangler.toml"));
  const { d1Databases, ...apiBindings } = workerOptions;
  const api = {
    ...apiBindings,
    name: API_WORKER,
    modules: true,
    scriptPath: entryOf(built.api),
    modulesRoot: built.api,
    // Development mode: the committed wrangler.toml is production, which refuses the dev keys.
    bindings: { ...workerOptions.bindings, ENVIRONMENT: "development", ...vars },
    unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
  };
  const workers = [api];
  if (wrapDb) {
    api.d1Databases = Object.fromEntries(Object.entries(d1Databases).filter(([name]) => name !== "DB"));
    api.wrappedBindings = { ...api.wrappedBindings, DB: { scriptName: WRAPPER_WORKER } };
    workers.push({
      name: WRAPPER_WORKER,
      modules: true,
      scriptPath: resolve(root, wrapDb), // a relative path is the repository's
      // No compatibility date or flags: a wrapped binding runs with those of the worker that has it.
      // The same database as the API's DB (same id, same persisted file).
      d1Databases: { INNER: d1Databases.DB },
      kvNamespaces: { FAULT_FLAGS: { id: "fault-flags" } },
    });
  } else {
    api.d1Databases = d1Databases;
  }
  workers.push({
    name: RENDERER_WORKER,
    modules: true,
    scriptPath: entryOf(built.renderer),
    modulesRoot: built.renderer,
    modulesRules: workerOptions.modulesRules,
    compatibilityDate: workerOptions.compatibilityDate,
    compatibilityFlags: workerOptions.compatibilityFlags,
  });

  const before = new Set(workerdChildren());
  const mf = new Miniflare({
    workers,
    host: "127.0.0.1",
    port: 0,
    inspectorPort,
    defaultPersistRoot: join(stateDir, "v3"),
    handleRuntimeStdio(stdout, stderr) {
      pipeLines(stdout, log, "workerd: ");
      pipeLines(stderr, log, "workerd! ");
    },
  });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await mf.dispose();
    if (ownState) rmSync(stateDir, { recursive: true, force: true });
  };
  try {
    await mf.ready;
    const url = (await mf.unsafeGetDirectURL(API_WORKER)).href.replace(/\/$/, "");
    const pids = workerdChildren().filter((pid) => !before.has(pid));
    const started = Date.now();
    for (;;) {
      const res = await fetch(`${url}/api/v1/health`).catch((e) => e);
      if (res instanceof Response) {
        await res.arrayBuffer();
        if (res.ok) break;
      }
      if (Date.now() - started > 60_000) throw new Error(`the worker did not answer /api/v1/health within 60 s (${res.status ?? res})`);
      await new Promise((r) => setTimeout(r, 200));
    }
    log(`API worker on ${url} (workerd ${pids.join(", ")}; ${Date.now() - started} ms to the first health answer)`);
    return { url, api: `${url}/api/v1`, mf, workerdPids: () => pids.filter((pid) => processTree(pid).length > 0), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

// `node test/bench/lib/miniflare.mjs`: a self-check of the setup above: signs up through the pass-through D1 wrapper
// (the API worker has no D1 binding of its own then), reads /users/me, writes and reads FAULT_FLAGS.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { allRateLimitsOff, clientHeaders, post } = await import("./doorman.mjs");
  const log = (msg) => console.error(`[miniflare] ${msg}`);
  const server = await startMiniflareWorker({ vars: allRateLimitsOff(), wrapDb: join(root, "test/bench/lib/d1-passthrough.mjs"), log });
  try {
    const email = `miniflare-${Date.now()}@example.com`;
    const user = await post(server.api, "/auth/password/sign-up", clientHeaders, { email, password: "correct horse battery" });
    const res = await fetch(`${server.api}/users/me`, { headers: { ...clientHeaders, "x-stack-access-token": user.access_token } });
    const me = await res.json();
    if (!res.ok || me.primary_email !== email) throw new Error(`/users/me → ${res.status} ${JSON.stringify(me).slice(0, 300)}`);
    const flags = await server.mf.getKVNamespace("FAULT_FLAGS", WRAPPER_WORKER);
    await flags.put("check", "on");
    if ((await flags.get("check")) !== "on") throw new Error("FAULT_FLAGS did not keep a value");
    console.log(`ok: /users/me through the D1 wrapper on ${server.url} (workerd ${server.workerdPids().join(", ")}); FAULT_FLAGS writable`);
  } finally {
    await server.stop();
  }
}
