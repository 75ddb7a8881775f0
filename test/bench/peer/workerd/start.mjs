// Starts the workerd peer (Better Auth on D1, index.mjs) for `npm run bench:peer` the way Doorman is
// started (test/bench/lib/doorman.mjs): the root `wrangler dev` in its own process group, local D1 in
// a fresh --persist-to folder with the schema applied first (`wrangler d1 execute --local --file`, the
// SQL Better Auth's planner gives: schema.mjs), its own dev-registry folder, loopback only.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { root } from "../../lib/doorman.mjs";
import { doormanHashParams } from "../../lib/password-hash.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const wrangler = join(root, "node_modules", ".bin", "wrangler");
const config = join(here, "wrangler.toml");
const running = new Set();

/** Kills every workerd peer started here (for SIGINT handlers). */
export function stopAllPeerWorkers() {
  for (const server of running) server.kill();
}

/**
 * Resolves once Better Auth's `GET /api/auth/ok` answers, with { pid, base, readySecs, stop(), kill() }:
 * pid is the group leader (wrangler's node process), whose tree also holds esbuild and workerd.
 */
export async function startPeerWorker({ port, inspectorPort, secret, log = () => {} }) {
  // Imported here, not at the top: schema.mjs imports better-auth, which run.mjs installs into test/bench/peer first.
  const { generateSchemaSql } = await import("./schema.mjs");
  const stateDir = mkdtempSync(join(os.tmpdir(), "doorman-bench-peer-workerd-"));
  // NODE_ENV=production: wrangler bakes process.env.NODE_ENV into the bundle ("development" under
  // `wrangler dev` otherwise), and the Node peer runs Better Auth with NODE_ENV=production too.
  const env = {
    ...process.env,
    WRANGLER_SEND_METRICS: "false",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    CI: "true",
    NODE_ENV: "production",
    WRANGLER_REGISTRY_PATH: join(stateDir, "registry"),
  };
  const schema = join(stateDir, "schema.sql");
  writeFileSync(schema, await generateSchemaSql());
  log(`applying Better Auth's schema to local D1 in ${stateDir}`);
  execFileSync(wrangler, ["d1", "execute", "DB", "--local", "--persist-to", stateDir, "-c", config, "--file", schema], {
    cwd: root,
    env,
    stdio: "pipe",
  });
  const base = `http://127.0.0.1:${port}`;
  // Doorman's Argon2id parameters, read from worker/crypto/password.ts (index.mjs hashes with them).
  const h = doormanHashParams(root);
  const vars = { BASE_URL: base, BETTER_AUTH_SECRET: secret, ARGON2: [h.memoryKiB, h.passes, h.parallelism, h.keyLen].join(",") };
  const child = spawn(
    wrangler,
    [
      "dev",
      "-c",
      config,
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--inspector-port",
      String(inspectorPort),
      "--persist-to",
      stateDir,
      ...Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]),
    ],
    { cwd: root, env, detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  const server = {
    pid: child.pid,
    base,
    readySecs: 0,
    kill() {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
      rmSync(stateDir, { recursive: true, force: true });
      running.delete(server);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {}
        await new Promise((r) => setTimeout(r, 500));
      }
      server.kill();
    },
  };
  running.add(server);
  let out = "";
  const keep = (d) => {
    out = (out + d).slice(-20000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const started = Date.now();
  while (Date.now() - started < 90_000) {
    if (child.exitCode !== null) {
      server.kill();
      throw new Error(`wrangler dev (Better Auth peer) exited early:\n${out}`);
    }
    try {
      const res = await fetch(`${base}/api/auth/ok`, { signal: AbortSignal.timeout(5000) });
      await res.text();
      if (res.ok) {
        server.readySecs = (Date.now() - started) / 1000;
        return server;
      }
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  server.kill();
  throw new Error(`wrangler dev (Better Auth peer) did not answer /api/auth/ok within 90 s:\n${out}`);
}
