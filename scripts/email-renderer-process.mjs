/**
 * The email renderer Worker (worker/email-render/wrangler.toml) in a workerd process of its own, for
 * `npm start`, `npm run dev`, the tests, the e2e stack and the benches. Why a separate process: workerd
 * runs one thread per process, so a hostile template rendering in the API's process would stall every
 * request for as long as it runs; locally workerd does not enforce the renderer's `[limits] cpu_ms`.
 *
 * The API reaches it in one of two ways:
 *  - `wrangler dev` / `wrangler pages dev` of the API: through wrangler's dev registry. This starts the
 *    renderer with a private registry folder (`registryPath`); run the API's wrangler with
 *    `WRANGLER_REGISTRY_PATH` set to the same folder (`registryEnv`), so parallel stacks (tests, `npm
 *    start`) never reach each other's renderer.
 *  - the vitest pool: `serviceBindings: { EMAIL_RENDERER: { external: { address, http: {} } } }`
 *    (vitest.config.ts), at the port this was started on.
 * Offline: `wrangler dev` needs no login or network. stop() kills the process group.
 *
 * With `buildDir` (npm start), the renderer is bundled once into that folder and run from the bundle
 * with no watcher (scripts/start-bundles.mjs): wrangler dev's esbuild watcher otherwise re-reads the
 * 1.4 MB sandbox library and the wasm several times a second, about 1% of a core while nothing happens.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "./free-port.mjs";
import { bundleWorker, writeConfig } from "./start-bundles.mjs";

const root = resolve(import.meta.dirname, "..");
export const RENDERER_CONFIG = join(root, "worker", "email-render", "wrangler.toml");

/** Signals the whole group, even after wrangler itself exited: its workerd may outlive it briefly. */
function killGroup(child, signal) {
  if (!child.pid) return;
  try {
    process.kill(-child.pid, signal);
  } catch {}
}

/**
 * One small render, so the sandbox is booted (QuickJS, the library bundle, its snapshot: ~1 s of CPU, paid
 * once per isolate) before the first real render, which then stays well inside the API's 5 s deadline
 * on a busy machine. A failure here is not fatal: the first real render boots it instead.
 */
async function warmUp(url) {
  try {
    const res = await fetch(`${url}/render`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        themeSource: null,
        templateSource: "export const variablesSchema = (v) => v;\nexport function EmailTemplate() {\n  return <p>warm</p>;\n}\n",
        variables: {},
        user: { displayName: null },
        project: { displayName: "warm-up" },
      }),
      signal: AbortSignal.timeout(60_000),
    });
    await res.arrayBuffer();
  } catch {}
}

/**
 * Starts the renderer; resolves once its GET /health answers and a first render has booted its sandbox.
 * @param {{ port?: number, registryPath?: string, timeoutMs?: number, buildDir?: string }} [options]
 *   port: where it listens (default: a free one); registryPath: the dev registry folder (default: a new
 *   temp folder, removed by stop()); buildDir: bundle once into this folder and run without a watcher
 *   (default: `wrangler dev` of the sources, rebuilt on change). Its output is kept (the last 20 KB) for log().
 */
export async function startEmailRenderer(options = {}) {
  const port = options.port ?? (await freePort());
  const inspectorPort = await freePort();
  const ownRegistry = options.registryPath === undefined;
  const registryPath = options.registryPath ?? mkdtempSync(join(tmpdir(), "doorman-dev-registry-"));
  const registryEnv = { WRANGLER_REGISTRY_PATH: registryPath };
  const env = {
    ...process.env,
    WRANGLER_SEND_METRICS: "false",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    ...registryEnv,
  };
  const wrangler = join(root, "node_modules", ".bin", "wrangler");
  const config = options.buildDir
    ? writeConfig(
        join(options.buildDir, "wrangler.toml"),
        await bundleWorker({ config: RENDERER_CONFIG, outDir: join(options.buildDir, "bundle") }),
      )
    : RENDERER_CONFIG;
  const args = ["dev", "-c", config, "--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(inspectorPort)];
  const child = spawn(wrangler, args, { cwd: root, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  const keep = (d) => {
    log = (log + d).slice(-20_000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  // A renderer must never outlive the process that started it (vitest, npm start, a bench).
  const onExit = () => {
    killGroup(child, "SIGKILL");
    if (ownRegistry) rmSync(registryPath, { recursive: true, force: true });
  };
  process.once("exit", onExit);

  const url = `http://127.0.0.1:${port}`;
  /** Kills the group at once (signal handlers, `process.exit` paths). */
  const kill = () => {
    process.removeListener("exit", onExit);
    onExit();
  };
  /** SIGTERM (wrangler removes its temp folders under worker/email-render/.wrangler), then SIGKILL whatever is left. */
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      killGroup(child, "SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
    }
    kill();
  };

  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(`the email renderer (wrangler dev -c ${config}) exited early:\n${log}`);
    }
    try {
      const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) break;
    } catch {}
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the email renderer did not answer ${url}/health in time:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await warmUp(url);
  return { url, port, address: `127.0.0.1:${port}`, pid: child.pid, registryPath, registryEnv, log: () => log, stop, kill };
}
