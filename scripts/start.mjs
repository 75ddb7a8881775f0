#!/usr/bin/env node
// `npm start`: the whole product on one origin, offline.
//   1. apply the D1 migrations to the local state in .wrangler/state
//   2. build the Remix web app (web/build); meanwhile start the email renderer Worker
//      (worker/email-render/wrangler.toml) in a workerd process of its own, on a loopback port, so a
//      hostile template cannot stall the API's thread (scripts/email-renderer-process.mjs)
//   3. run `wrangler pages dev` in web/ with the API worker's config as a second config,
//      so the pages and /api/* (forwarded to the worker via the API service binding) share
//      http://localhost:$PORT (default 8788); the API reaches the renderer (EMAIL_RENDERER) through
//      a private wrangler dev registry (WRANGLER_REGISTRY_PATH)
//      (in development mode: a generated wrangler.dev.toml sets ENVIRONMENT = "development"; without
//      STRIPE_SECRET_KEY it also points the worker at the local Stripe fake, scripts/stripe-dev-server.mjs,
//      started here, with a test key)
//   4. wait for GET /api/v1/health (the first /api request seeds the internal project in
//      development), then print the URLs and the internal project's dev keys.
//   5. run the worker's cron jobs (pages dev never fires them): the daily retention now and
//      every 24 h, the webhook sweep every 10 minutes.
// Data persists across restarts under .wrangler/state. Ctrl+C stops everything.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startEmailRenderer } from "./email-renderer-process.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const port = Number(process.env.PORT || 8788);
const origin = `http://localhost:${port}`;
const probeOrigin = `http://127.0.0.1:${port}`;
// Where the local D1/KV/DO state lives (relative to the repo). DOORMAN_STATE_DIR gives a run its own
// state, e.g. `npm run compat:reference`, so a test run never touches a developer's data.
const stateDir = process.env.DOORMAN_STATE_DIR || ".wrangler/state";
const wrangler = join(root, "node_modules", ".bin", "wrangler");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const env = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
};

if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`PORT must be a TCP port number, got ${JSON.stringify(process.env.PORT)}`);
if (!existsSync(wrangler)) fail("node_modules is missing: run `npm ci` first.");

let current = null; // the running child process
let renderer = null; // the email renderer's process (scripts/email-renderer-process.mjs)
let stopping = false;

function log(msg) {
  console.log(`\x1b[36m[doorman]\x1b[0m ${msg}`);
}

function fail(msg) {
  console.error(`\x1b[31m[doorman]\x1b[0m ${msg}`);
  process.exit(1);
}

/** Runs a step to completion in its own process group; rejects on a non-zero exit. */
function step(cmd, args, opts = {}) {
  return new Promise((res, rej) => {
    const child = spawn(cmd, args, { cwd: root, env, stdio: "inherit", detached: true, ...opts });
    current = child;
    child.on("error", rej);
    child.on("exit", (code, signal) => {
      current = null;
      if (code === 0) res();
      else rej(new Error(`${cmd} ${args.join(" ")} failed (${signal ?? `exit ${code}`})`));
    });
  });
}

function killGroup(child, signal) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {}
  }
}

function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  const child = current;
  if (!child) process.exit(0);
  log(`stopping (${signal})…`);
  void renderer?.stop();
  killGroup(child, signal);
  const hard = setTimeout(() => killGroup(child, "SIGKILL"), 8000);
  hard.unref();
  child.once("exit", () => {
    clearTimeout(hard);
    // workerd may outlive the wrangler process briefly; make sure the group is gone.
    killGroup(child, "SIGKILL");
    process.exit(0);
  });
}
process.on("SIGINT", () => shutdown("SIGINT"));
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGHUP", () => shutdown("SIGHUP"));

function portInUse(p) {
  return new Promise((res) => {
    const sock = connect({ host: "127.0.0.1", port: p });
    sock.once("connect", () => {
      sock.destroy();
      res(true);
    });
    sock.once("error", () => res(false));
  });
}

/** A free loopback port chosen by the OS. */
function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once("error", rej);
    srv.listen(0, "127.0.0.1", () => {
      const { port: p } = srv.address();
      srv.close(() => res(p));
    });
  });
}

function devKeys() {
  const fallback = {
    DEV_PUBLISHABLE_CLIENT_KEY: "this-publishable-client-key-is-for-local-development-only",
    DEV_SECRET_SERVER_KEY: "this-secret-server-key-is-for-local-development-only",
    DEV_SUPER_SECRET_ADMIN_KEY: "this-super-secret-admin-key-is-for-local-development-only",
  };
  try {
    // The publishable key is in the wire contract (the console uses it), the secret ones are the worker's.
    const src = ["sdk/src/shared/constants.ts", "worker/internal-seed.ts"].map((f) => readFileSync(join(root, f), "utf8")).join("\n");
    for (const name of Object.keys(fallback)) {
      const m = src.match(new RegExp(`${name}\\s*=\\s*"([^"]+)"`));
      if (m) fallback[name] = m[1];
    }
  } catch {}
  return fallback;
}

async function waitForHealth(child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) return false;
    try {
      const res = await fetch(`${probeOrigin}/api/v1/health`, { signal: AbortSignal.timeout(5000) });
      if (res.ok) return true;
    } catch {}
    await new Promise((r) => setTimeout(r, 300));
  }
  return false;
}

/**
 * The worker's config for this run: a generated copy of wrangler.toml, wrangler.dev.toml
 * (gitignored), because the worker behind `pages dev` reads vars only from its wrangler.toml, not
 * from .dev.vars or --var. It always sets ENVIRONMENT = "development" (the committed wrangler.toml
 * is production, which refuses the public dev keys). When the shell sets SHARED_SMTP_* (e.g. a local
 * mail catcher), SHARED_OAUTH_* (real shared OAuth keys), RATE_LIMIT_* (a deployment's rate limits,
 * worker/config.ts), STRIPE_API_URL/STRIPE_SECRET_KEY/STRIPE_WEBHOOK_SECRET, WEB_APP_URL (where purchase URLs point),
 * EMAIL_CAPACITY_PER_HOUR, NEW_PROJECT_DEVICE_VERIFICATION, STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING (development-only, for the
 * reference suite's recorded passkeys), and for OAUTH_MOCK_ISSUER (the bundled OpenID provider started
 * below), they are added too.
 */
function workerConfigWithRelay() {
  const names = [
    "SHARED_SMTP_HOST",
    "SHARED_SMTP_PORT",
    "SHARED_SMTP_USERNAME",
    "SHARED_SMTP_PASSWORD",
    "SHARED_SMTP_SENDER_EMAIL",
    "SHARED_SMTP_SENDER_NAME",
    "OAUTH_MOCK_ISSUER",
    "STRIPE_API_URL",
    "STRIPE_SECRET_KEY",
    "STRIPE_WEBHOOK_SECRET",
    "WEB_APP_URL",
    "EMAIL_CAPACITY_PER_HOUR",
    "NEW_PROJECT_DEVICE_VERIFICATION",
    "STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING",
    ...Object.keys(process.env).filter((n) => /^SHARED_OAUTH_[A-Z]+_(CLIENT_ID|CLIENT_SECRET|TENANT_ID)$/.test(n)),
    ...Object.keys(process.env).filter((n) => /^RATE_LIMIT_[A-Z_]+$/.test(n)),
  ];
  const relay = names.filter((n) => process.env[n]);
  const base = readFileSync(join(root, "wrangler.toml"), "utf8");
  if (/^ENVIRONMENT\s*=/m.test(base)) fail("wrangler.toml must not set ENVIRONMENT (npm start sets development itself).");
  const lines = [
    "# Added by npm start: development mode (seeds the internal project with the public dev keys).",
    'ENVIRONMENT = "development"',
    "# /api/v1/docs loads its script from the web app (copied there by the build), so it works offline.",
    'API_DOCS_SCRIPT_URL = "/vendor/scalar-api-reference.js"',
    ...(relay.length ? ["# Added by npm start from the shell environment."] : []),
    ...relay.map((n) => `${n} = ${JSON.stringify(process.env[n])}`),
  ].join("\n");
  writeFileSync(join(root, "wrangler.dev.toml"), base.replace(/^\[vars\]$/m, `[vars]\n${lines}`));
  if (process.env.SHARED_SMTP_HOST)
    log(`relaying shared email to ${process.env.SHARED_SMTP_HOST}:${process.env.SHARED_SMTP_PORT ?? "587"} (wrangler.dev.toml)`);
  return "wrangler.dev.toml";
}

async function main() {
  const started = Date.now();
  if (await portInUse(port)) fail(`port ${port} is already in use (another \`npm start\`?). Stop it, or run with PORT=<other port>.`);

  log(`applying D1 migrations to ${stateDir} …`);
  await step(wrangler, ["d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir], {
    stdio: ["ignore", "inherit", "inherit"],
  });

  // The email renderer starts while the web app builds (its own workerd process; see the header).
  const rendererReady = startEmailRenderer();
  rendererReady.catch(() => {});
  log("building the web app (remix vite:build) …");
  await step(npm, ["run", "build", "--silent"]);
  renderer = await rendererReady;
  log(`email renderer (worker/email-render) in its own workerd process on ${renderer.url}`);

  // Shared OAuth providers sign in against the bundled OpenID provider, offline (OAUTH_MOCK=off to skip).
  let oidcNote = "";
  if (!process.env.OAUTH_MOCK_ISSUER && process.env.OAUTH_MOCK !== "off") {
    const oidcPort = (await portInUse(8114)) ? await freePort() : 8114;
    const { startOidcDevServer } = await import("./oidc-dev-server.mjs");
    const oidc = await startOidcDevServer({ port: oidcPort });
    process.env.OAUTH_MOCK_ISSUER = oidc.issuer;
    oidcNote = `\n  OAuth (shared)  ${oidc.issuer}   (dev OpenID provider: any email signs in)`;
    log(`dev OpenID provider for shared OAuth providers on ${oidc.issuer}`);
  }
  // Live-mode payments talk to the bundled Stripe fake unless the shell sets a Stripe key (STRIPE_FAKE=off to skip).
  let stripeNote = "";
  if (!process.env.STRIPE_SECRET_KEY && process.env.STRIPE_FAKE !== "off") {
    const { startStripeDevServer, STRIPE_DEV_SECRET_KEY, STRIPE_DEV_WEBHOOK_SECRET } = await import("./stripe-dev-server.mjs");
    if (!process.env.STRIPE_API_URL) {
      const stripePort = (await portInUse(8115)) ? await freePort() : 8115;
      const stripe = await startStripeDevServer({ port: stripePort });
      process.env.STRIPE_API_URL = stripe.url;
      stripeNote = `\n  Stripe (fake)   ${stripe.url}   (local Stripe fake: onboarding is one click, no money moves)`;
      log(`local Stripe fake for live-mode payments on ${stripe.url}`);
    }
    // A test key for the fake (or the shell's own Stripe mock at STRIPE_API_URL); never a real account's.
    process.env.STRIPE_SECRET_KEY = STRIPE_DEV_SECRET_KEY;
    // Webhooks signed with it are accepted (a local tool or test posting Stripe-shaped events), unless the shell sets its own.
    process.env.STRIPE_WEBHOOK_SECRET ??= STRIPE_DEV_WEBHOOK_SECRET;
  }
  const workerConfig = workerConfigWithRelay();

  // wrangler's inspector defaults to 9229; another wrangler (e.g. `npm run dev`) may hold it.
  const inspectorPort = (await portInUse(9229)) ? await freePort() : 9229;
  log(`starting wrangler pages dev (web + API worker) on ${origin} …`);
  const server = spawn(
    wrangler,
    [
      "pages",
      "dev",
      "-c",
      "wrangler.toml",
      "-c",
      `../${workerConfig}`,
      "--persist-to",
      resolve(root, stateDir),
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--inspector-port",
      String(inspectorPort),
    ],
    { cwd: join(root, "web"), env: { ...env, ...renderer.registryEnv }, stdio: ["ignore", "inherit", "inherit"], detached: true },
  );
  current = server;
  server.on("exit", (code, signal) => {
    current = null;
    if (stopping) return;
    console.error(`\x1b[31m[doorman]\x1b[0m wrangler pages dev exited (${signal ?? `exit ${code}`}).`);
    killGroup(server, "SIGKILL");
    process.exit(code || 1);
  });

  // Any /api/v1 request seeds the internal project in development; health is the first.
  if (!(await waitForHealth(server, 120_000))) {
    if (stopping) return;
    killGroup(server, "SIGTERM");
    fail(`the API did not answer ${origin}/api/v1/health within 120 s (see the log above).`);
  }
  const keys = devKeys();
  let seeded = "";
  try {
    const res = await fetch(`${probeOrigin}/api/v1/projects/current`, {
      headers: {
        "x-stack-project-id": "internal",
        "x-stack-access-type": "client",
        "x-stack-publishable-client-key": keys.DEV_PUBLISHABLE_CLIENT_KEY,
      },
    });
    if (!res.ok) seeded = `\n  (warning: GET /api/v1/projects/current with the dev keys answered ${res.status})`;
  } catch {}

  const secs = ((Date.now() - started) / 1000).toFixed(1);
  const line = "─".repeat(72);
  console.log(`
${line}
  Doorman is running (ready in ${secs} s). Offline; data in ${stateDir}.

  App           ${origin}/
  API base      ${origin}/api/v1        (health: ${origin}/api/v1/health)
  Dashboard     ${origin}/projects      (project owners sign in to the internal project)
  Sign in       ${origin}/handler/sign-in
  Sign up       ${origin}/handler/sign-up${oidcNote}${stripeNote}
  ${inboxNote()}

  Internal project (the dashboard's own project), development keys:
    project id              internal
    publishable client key  ${keys.DEV_PUBLISHABLE_CLIENT_KEY}
    secret server key       ${keys.DEV_SECRET_SERVER_KEY}
    super secret admin key  ${keys.DEV_SUPER_SECRET_ADMIN_KEY}${seeded}

  Press Ctrl+C to stop.
${line}
`);
  runCrons();
}

/** Where local email goes: the dev inbox (no SMTP relay), or the relay given in the environment. */
function inboxNote() {
  if (process.env.SHARED_SMTP_HOST)
    return `Email         relayed to ${process.env.SHARED_SMTP_HOST}:${process.env.SHARED_SMTP_PORT || 587} (SHARED_SMTP_*)`;
  return `Dev inbox     ${origin}/dev-inbox      (your own mail, e.g. the sign-up verification link;
                each project's: Emails → Dev inbox, /projects/{id}/emails/inbox)`;
}

/**
 * `wrangler pages dev` never fires the worker's cron triggers, so this does, through the worker's
 * development-only trigger (worker/index.ts DEV_SCHEDULED_PATH): the daily jobs (event retention,
 * old webhook deliveries) now and every 24 h, the webhook sweep every 10 minutes.
 */
function runCrons() {
  const crons = [
    { cron: "17 3 * * *", everyMs: 24 * 60 * 60 * 1000, now: true },
    { cron: "*/10 * * * *", everyMs: 10 * 60 * 1000, now: false },
  ];
  const run = async (cron) => {
    try {
      const res = await fetch(`${probeOrigin}/api/__dev/scheduled?cron=${encodeURIComponent(cron)}`, { method: "POST" });
      const body = await res.json();
      const { cron: _cron, ...done } = body;
      log(
        `cron "${cron}": ${Object.entries(done)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ")}`,
      );
    } catch (err) {
      if (!stopping) log(`cron "${cron}" failed: ${err.message}`);
    }
  };
  for (const { cron, everyMs, now } of crons) {
    if (now) void run(cron);
    setInterval(() => void run(cron), everyMs).unref();
  }
}

main().catch((err) => {
  if (stopping) return;
  console.error(`\x1b[31m[doorman]\x1b[0m ${err.message}`);
  killGroup(current, "SIGTERM");
  process.exit(1);
});
