// Doorman under `wrangler dev` for the benches: fresh state folder with the migrations applied,
// loopback only, development mode (the dev keys of the internal project), the rate-limit vars a
// bench passes. Shared by test/bench/run.mjs and test/bench/peer/run.mjs. The email renderer Worker runs
// in a workerd process of its own beside it (scripts/email-renderer-process.mjs), as under `npm start`;
// it is not in the server's process tree, so the benches' CPU and memory figures are the API's alone.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startEmailRenderer } from "../../../scripts/email-renderer-process.mjs";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const wrangler = join(root, "node_modules", ".bin", "wrangler");
const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", CI: "true" };

function readConstant(name, fallback) {
  try {
    // The publishable key is in the wire contract (the console uses it), the secret ones are the worker's.
    const src = ["sdk/src/shared/constants.ts", "worker/internal-seed.ts"].map((f) => readFileSync(join(root, f), "utf8")).join("\n");
    return src.match(new RegExp(`${name}\\s*=\\s*"([^"]+)"`))?.[1] ?? fallback;
  } catch {
    return fallback;
  }
}

export const PUBLISHABLE_KEY = readConstant("DEV_PUBLISHABLE_CLIENT_KEY", "this-publishable-client-key-is-for-local-development-only");
export const SECRET_KEY = readConstant("DEV_SECRET_SERVER_KEY", "this-secret-server-key-is-for-local-development-only");
export const ADMIN_KEY = readConstant("DEV_SUPER_SECRET_ADMIN_KEY", "this-super-secret-admin-key-is-for-local-development-only");

export const clientHeaders = {
  "x-stack-project-id": "internal",
  "x-stack-access-type": "client",
  "x-stack-publishable-client-key": PUBLISHABLE_KEY,
};
export const serverHeaders = { "x-stack-project-id": "internal", "x-stack-access-type": "server", "x-stack-secret-server-key": SECRET_KEY };
export const adminHeaders = {
  "x-stack-project-id": "internal",
  "x-stack-access-type": "admin",
  "x-stack-super-secret-admin-key": ADMIN_KEY,
};

/** Every rule of sdk/src/shared/rate-limit-rules.ts as a `RATE_LIMIT_<RULE>: "0"` var (all off). */
export function allRateLimitsOff() {
  const src = readFileSync(join(root, "sdk/src/shared/rate-limit-rules.ts"), "utf8");
  const body = src.slice(src.indexOf("RATE_LIMIT_RULES = {"), src.indexOf("} as const"));
  const names = [...body.matchAll(/^\s+([A-Z][A-Z_]+):/gm)].map((m) => m[1]);
  if (!names.length) throw new Error("no rate-limit rules found in sdk/src/shared/rate-limit-rules.ts");
  return Object.fromEntries(names.map((n) => [`RATE_LIMIT_${n}`, "0"]));
}

/** Package version from the root node_modules (or `dir`'s). */
export function versionOf(pkg, dir = root) {
  try {
    return JSON.parse(readFileSync(join(dir, "node_modules", pkg, "package.json"), "utf8")).version;
  } catch {
    return "?";
  }
}

const running = new Set();

/** Stops every server started here (for SIGINT handlers). */
export function stopAllDoormen() {
  for (const server of running) server.kill();
}

/**
 * Starts `wrangler dev` in its own process group. Resolves once /api/v1/health answers, with
 * { pid, base, api, readySecs, stop() }: pid is the group leader (wrangler's node process).
 */
export async function startDoorman({ port, inspectorPort, vars = {}, log = () => {} }) {
  const stateDir = mkdtempSync(join(os.tmpdir(), "doorman-bench-"));
  log(`applying migrations into ${stateDir}`);
  execFileSync(wrangler, ["d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir], { cwd: root, env, stdio: "pipe" });
  const base = `http://127.0.0.1:${port}`;
  const renderer = await startEmailRenderer();
  log(`email renderer on ${renderer.url}; starting wrangler dev on ${base}`);
  // Development mode: the committed wrangler.toml is production, which refuses the dev keys.
  const varArgs = Object.entries({ ENVIRONMENT: "development", ...vars }).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  const child = spawn(
    wrangler,
    ["dev", "--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(inspectorPort), "--persist-to", stateDir, ...varArgs],
    { cwd: root, env: { ...env, ...renderer.registryEnv }, detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  const server = {
    pid: child.pid,
    base,
    api: `${base}/api/v1`,
    readySecs: 0,
    kill() {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
      renderer.kill();
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
      throw new Error(`wrangler dev exited early:\n${out}`);
    }
    try {
      const res = await fetch(`${server.api}/health`, { signal: AbortSignal.timeout(5000) });
      if (res.ok) {
        await settled(server.api);
        server.readySecs = (Date.now() - started) / 1000;
        return server;
      }
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  server.kill();
  throw new Error(`wrangler dev did not answer /api/v1/health within 90 s:\n${out}`);
}

/**
 * wrangler reloads the Worker once the email renderer's dev-registry connection comes up, a few
 * seconds after the first answer, and a POST in flight during that reload gets wrangler's own 503
 * ("restarted mid-request"; only GET and HEAD are retried). A bench starts its load only once a
 * POST has been answered by the Worker twice in a row, 2 s apart.
 */
async function settled(api) {
  let answered = 0;
  for (let i = 0; i < 30 && answered < 2; i++) {
    await new Promise((r) => setTimeout(r, 2000));
    const res = await fetch(`${api}/auth/password/sign-in`, {
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json" },
    });
    await res.text();
    answered = res.status === 503 ? 0 : answered + 1;
  }
}

/** JSON request to the API; throws on a non-2xx answer. */
export async function post(api, path, headers, body, method = "POST") {
  const res = await fetch(`${api}${path}`, {
    method,
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify(body ?? {}),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

/** The autocannon requests of the read and refresh benches: `GET /users/me` with the user's access token, and the refresh. */
export function readAndRefreshRequests(api, user) {
  return {
    "users-me": { url: `${api}/users/me`, headers: { ...clientHeaders, "x-stack-access-token": user.access_token } },
    refresh: {
      url: `${api}/auth/sessions/current/refresh`,
      method: "POST",
      headers: { ...clientHeaders, "content-type": "application/json", "x-stack-refresh-token": user.refresh_token },
      body: "{}",
    },
  };
}
