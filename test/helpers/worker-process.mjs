/**
 * Starts the API worker with `wrangler dev` on a free loopback port and a fresh state folder
 * (migrations applied first), for Node-side tests and the bench, with the email renderer Worker in a
 * workerd process of its own (scripts/email-renderer-process.mjs, reached through a private dev
 * registry). stop() kills both groups.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startEmailRenderer } from "../../scripts/email-renderer-process.mjs";

const root = resolve(import.meta.dirname, "../..");
const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", CI: "true" };

export function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
    srv.on("error", rej);
  });
}

export async function startWorker({ vars = {} } = {}) {
  const state = mkdtempSync(join(tmpdir(), "doorman-state-"));
  const wrangler = join(root, "node_modules/.bin/wrangler");
  execFileSync(wrangler, ["d1", "migrations", "apply", "DB", "--local", "--persist-to", state], { cwd: root, env, stdio: "pipe" });
  const renderer = await startEmailRenderer();
  const port = await freePort();
  const inspector = await freePort();
  // Development mode unless the caller says otherwise: the committed wrangler.toml is production.
  const varArgs = Object.entries({ ENVIRONMENT: "development", ...vars }).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  const child = spawn(
    wrangler,
    ["dev", "--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(inspector), "--persist-to", state, ...varArgs],
    {
      cwd: root,
      env: { ...env, ...renderer.registryEnv },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let log = "";
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      await renderer.stop();
      throw new Error(`wrangler dev exited early:\n${log}`);
    }
    try {
      const res = await fetch(`${url}/api/v1/health`);
      if (res.ok) break;
    } catch {}
    if (Date.now() > deadline) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
      await renderer.stop();
      throw new Error(`wrangler dev did not become ready:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    log: () => log,
    async stop() {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {}
      await new Promise((r) => setTimeout(r, 300));
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
      await renderer.stop();
      rmSync(state, { recursive: true, force: true });
    },
  };
}
