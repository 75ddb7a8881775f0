#!/usr/bin/env node
// `npm start`: the whole product on one origin, offline, built once and run without a watcher.
//   1. apply the D1 migrations to the local state in .wrangler/state
//   2. build, once, into this run's folder .wrangler/start/<port>/ (scripts/start-bundles.mjs):
//      - the Remix web app (web/build), then its Pages Functions (web/functions, with the server build
//        they import) as one Worker bundle (`wrangler pages functions build`);
//      - the API worker (`wrangler deploy --dry-run`: the bundle a deploy uploads);
//      - the email renderer Worker (worker/email-render), started in a workerd process of its own on a
//        loopback port, so a hostile template cannot stall the API's thread (scripts/email-renderer-process.mjs)
//   3. run both bundles with `wrangler dev -c <web> -c <api>` from generated configs with `no_bundle`:
//      the web Worker (the Pages Functions, with web/build/client as its ASSETS, every request to the
//      Functions first as on Pages) and the API worker share http://localhost:$PORT (default 8788); /api/*
//      goes to the API through the web app's API service binding (web/functions/[[path]].ts), as on Pages.
//      The API reaches the renderer (EMAIL_RENDERER) through a private wrangler dev registry
//      (WRANGLER_REGISTRY_PATH). The API's config is development mode (ENVIRONMENT = "development"; without
//      STRIPE_SECRET_KEY it also points the worker at the local Stripe fake, scripts/stripe-dev-server.mjs,
//      started here, with a test key)
//   4. wait for GET /api/v1/health (the first /api request seeds the internal project in
//      development), then print the URLs and the internal project's dev keys.
//   5. run the worker's cron jobs (wrangler dev never fires them): the daily retention now and
//      every 24 h, the webhook sweep every 10 minutes.
// Why built once (issue 32): `wrangler dev` and `wrangler pages dev` bundle with esbuild in watch mode,
// and esbuild's watcher polls by re-reading every file of the bundle several times a second. For the
// Pages Functions that is a 6.6 MB bundle of the Remix server build: 20-25% of a core with nobody using
// the server, on every developer's laptop and under every local benchmark. wrangler has no flag to turn
// that watcher off. A config with `no_bundle = true` runs its `main` as is: no bundler watch, only a
// one-off esbuild pass that reads the entry's exports. `pages dev` cannot do that for Functions (it always
// bundles them, and 4.86 fails on `--no-bundle` with a `_worker.js` folder: "No such module
// wrangler:modules-watch"), hence the web app runs here as the Worker its Functions build into, with the
// same ASSETS fallback Pages gives it. So nothing rebuilds while idle: all processes together stay under
// 1% of a core (`npm run bench:idle` measures it). After changing the code, restart `npm start` (it
// rebuilds everything), or use a watch mode:
//   - `npm start -- --watch`: the same stack, but the API worker is bundled by wrangler from worker/ and
//     rebuilt when its sources change (its esbuild watcher then polls those files: about 2% of a core idle);
//   - `npm run dev`: the API alone under `wrangler dev` on :8787, rebuilt on change.
// The e2e stack (test/e2e/stack.mjs) still runs `wrangler pages dev` itself, so Pages' own serving stays tested.
// Data persists across restarts under .wrangler/state. Ctrl+C stops everything.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startEmailRenderer } from "./email-renderer-process.mjs";
import { freePort } from "./free-port.mjs";
import { buildProcesses, bundleWebApp, bundleWorker, replaceTopLevel, runFolder, tomlString, writeConfig } from "./start-bundles.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const port = Number(process.env.PORT || 8788);
const origin = `http://localhost:${port}`;
const probeOrigin = `http://127.0.0.1:${port}`;
// Where the local D1/KV/DO state lives (relative to the repo). DOORMAN_STATE_DIR gives a run its own
// state, e.g. `npm run compat:reference`, so a test run never touches a developer's data.
const stateDir = process.env.DOORMAN_STATE_DIR || ".wrangler/state";
// `npm start -- --watch`: the API worker is bundled by wrangler from its sources and rebuilt on change.
const watch = process.argv.slice(2).includes("--watch");
const unknown = process.argv.slice(2).filter((a) => a !== "--watch");
const wrangler = join(root, "node_modules", ".bin", "wrangler");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const env = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
};

if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`PORT must be a TCP port number, got ${JSON.stringify(process.env.PORT)}`);
if (unknown.length) fail(`unknown argument ${unknown.join(" ")} (npm start takes only --watch)`);
if (!existsSync(wrangler)) fail("node_modules is missing: run `npm ci` first.");

// This run's bundles and generated configs (scripts/start-bundles.mjs); removed when it stops.
const runDir = runFolder(port);
const children = new Set(); // the child processes started here, each in its own process group
let renderer = null; // the email renderer's process (scripts/email-renderer-process.mjs)
let stopping = false;

function log(msg) {
  console.log(`\x1b[36m[doorman]\x1b[0m ${msg}`);
}

function fail(msg) {
  console.error(`\x1b[31m[doorman]\x1b[0m ${msg}`);
  process.exit(1);
}

/** Starts a child in its own process group and keeps it in `children` until it exits. */
function launch(cmd, args, opts = {}) {
  const child = spawn(cmd, args, { cwd: root, env, stdio: "inherit", detached: true, ...opts });
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

/** Runs a step to completion in its own process group; rejects on a non-zero exit. */
function step(cmd, args, opts = {}) {
  return new Promise((res, rej) => {
    const child = launch(cmd, args, opts);
    child.on("error", rej);
    child.on("exit", (code, signal) => {
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

/** Stops every child (steps, bundlers, wrangler dev, the renderer), removes the run's folder, exits. */
function stopAll(signal, code) {
  const running = [...children, ...buildProcesses];
  const exited = running.map((c) => (c.exitCode !== null || c.signalCode !== null ? null : new Promise((r) => c.once("exit", r))));
  for (const c of running) killGroup(c, signal);
  const hard = setTimeout(() => {
    for (const c of running) killGroup(c, "SIGKILL");
  }, 8000);
  hard.unref();
  return Promise.all([renderer?.stop(), ...exited]).then(() => {
    clearTimeout(hard);
    // workerd may outlive the wrangler process briefly; make sure each group is gone.
    for (const c of running) {
      try {
        process.kill(-c.pid, "SIGKILL");
      } catch {}
    }
    rmSync(runDir, { recursive: true, force: true });
    process.exit(code);
  });
}

function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  log(`stopping (${signal})…`);
  void stopAll(signal, 0);
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
 * The API worker's config for this run, generated into the run's folder from wrangler.toml: the
 * prebuilt bundle with `no_bundle` (or, with --watch, the sources for wrangler to bundle and watch),
 * plus vars, because the worker reads its vars only from its config here, not from .dev.vars or --var.
 * It always sets ENVIRONMENT = "development" (the committed wrangler.toml
 * is production, which refuses the public dev keys). When the shell sets SHARED_SMTP_* (e.g. a local
 * mail catcher), SHARED_OAUTH_* (real shared OAuth keys), RATE_LIMIT_* (a deployment's rate limits,
 * worker/config.ts), STRIPE_API_URL/STRIPE_SECRET_KEY/STRIPE_WEBHOOK_SECRET, WEB_APP_URL (where purchase URLs point),
 * EMAIL_CAPACITY_PER_HOUR, NEW_PROJECT_DEVICE_VERIFICATION, STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING (development-only, for the
 * reference suite's recorded passkeys), and for OAUTH_MOCK_ISSUER (the bundled OpenID provider started
 * below), they are added too.
 * @param {string} base the config's text (wrangler.toml's, or the prebuilt bundle's)
 */
function apiDevConfig(base) {
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
  if (/^ENVIRONMENT\s*=/m.test(base)) fail("wrangler.toml must not set ENVIRONMENT (npm start sets development itself).");
  const lines = [
    "# Added by npm start: development mode (seeds the internal project with the public dev keys).",
    'ENVIRONMENT = "development"',
    "# /api/v1/docs loads its script from the web app (copied there by the build), so it works offline.",
    'API_DOCS_SCRIPT_URL = "/vendor/scalar-api-reference.js"',
    ...(relay.length ? ["# Added by npm start from the shell environment."] : []),
    ...relay.map((n) => `${n} = ${JSON.stringify(process.env[n])}`),
  ].join("\n");
  // The generated config lives in the run's folder: its one relative path points back at the repo's.
  const located = replaceTopLevel(base, "migrations_dir", [`migrations_dir = ${tomlString(join(root, "migrations"))}`]).replace(
    /^\[vars\]$/m,
    () => `[vars]\n${lines}`,
  );
  if (process.env.SHARED_SMTP_HOST)
    log(
      `relaying shared email to ${process.env.SHARED_SMTP_HOST}:${process.env.SHARED_SMTP_PORT ?? "587"} (${join(runDir, "wrangler.dev.toml")})`,
    );
  return writeConfig(join(runDir, "wrangler.dev.toml"), located);
}

/** wrangler.toml with `main` made absolute, for wrangler to bundle and watch (--watch). */
function sourceConfig() {
  const base = readFileSync(join(root, "wrangler.toml"), "utf8");
  const main = base.match(/^main\s*=\s*"([^"]+)"/m)?.[1];
  if (!main) fail("wrangler.toml has no main.");
  return replaceTopLevel(base, "main", [`main = ${tomlString(join(root, main))}`]);
}

async function main() {
  const started = Date.now();
  if (await portInUse(port)) fail(`port ${port} is already in use (another \`npm start\`?). Stop it, or run with PORT=<other port>.`);
  rmSync(runDir, { recursive: true, force: true }); // a crashed run's leftovers on this port

  log(`applying D1 migrations to ${stateDir} …`);
  await step(wrangler, ["d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir], {
    stdio: ["ignore", "inherit", "inherit"],
  });

  // Built once, side by side: the email renderer (bundled, then started in its own workerd process; see
  // the header), the API worker's bundle, the web app and then its Pages Functions bundle.
  log(`building into ${runDir} (web app, API worker${watch ? " watched from worker/" : ""}, email renderer) …`);
  const rendererReady = startEmailRenderer({ buildDir: join(runDir, "renderer") });
  rendererReady.catch(() => {});
  const apiBase = watch
    ? Promise.resolve(sourceConfig())
    : bundleWorker({ config: join(root, "wrangler.toml"), outDir: join(runDir, "api") });
  apiBase.catch(() => {});
  await step(npm, ["run", "build", "--silent"]);
  const webConfig = writeConfig(join(runDir, "web.toml"), await bundleWebApp({ outDir: join(runDir, "web") }));
  const apiText = await apiBase;
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
  const apiConfig = apiDevConfig(apiText);

  // wrangler's inspector defaults to 9229; another wrangler (e.g. `npm run dev`) may hold it.
  const inspectorPort = (await portInUse(9229)) ? await freePort() : 9229;
  log(`starting wrangler dev (web app + API worker${watch ? ", the API rebuilt on change" : ", no watcher"}) on ${origin} …`);
  const server = launch(
    wrangler,
    [
      "dev",
      "-c",
      webConfig,
      "-c",
      apiConfig,
      "--persist-to",
      resolve(root, stateDir),
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--inspector-port",
      String(inspectorPort),
      "--show-interactive-dev-session=false",
    ],
    { env: { ...env, ...renderer.registryEnv }, stdio: ["ignore", "inherit", "inherit"] },
  );
  server.on("exit", (code, signal) => {
    if (stopping) return;
    stopping = true;
    console.error(`\x1b[31m[doorman]\x1b[0m wrangler dev exited (${signal ?? `exit ${code}`}).`);
    void stopAll("SIGKILL", code || 1);
  });

  // Any /api/v1 request seeds the internal project in development; health is the first.
  if (!(await waitForHealth(server, 120_000))) {
    if (stopping) return;
    stopping = true;
    console.error(`\x1b[31m[doorman]\x1b[0m the API did not answer ${origin}/api/v1/health within 120 s (see the log above).`);
    await stopAll("SIGTERM", 1);
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
 * `wrangler dev` fires no cron triggers by itself, so this does, through the worker's
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
  stopping = true;
  console.error(`\x1b[31m[doorman]\x1b[0m ${err.message}`);
  void stopAll("SIGTERM", 1);
});
