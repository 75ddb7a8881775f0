/**
 * `npm run compat:reference -- <checkout of stack-auth/stack-auth> [vitest filters…]`
 *
 * Runs the reference implementation's own backend suite (apps/e2e/tests/backend), unchanged, against
 * a local Doorman, and prints passed/ran by area (docs/compat.md keeps the last figures):
 *   1. a real SMTP sink with Inbucket's REST API over it (inbucket.ts), where the suite reads mail;
 *   2. `npm start` on its own port and its own state dir, relaying shared mail to that sink;
 *   3. vitest on the checkout's tests, linked into .run/ (nothing of them is copied in), with the
 *      one relaxation in setup.ts (a response snapshot is checked for status and known-error code);
 *   4. the JSON report, grouped by areas.ts.
 * The suite's OAuth flows go through Doorman's dev OpenID provider (scripts/oidc-dev-server.mjs), on
 * localhost:8114 where the suite expects its mock OAuth server, speaking the same interaction protocol.
 * Env: COMPAT_PORT (default 8102), COMPAT_WORKERS (vitest workers, default 4), REFERENCE_COMMIT (when
 * the checkout is not a git work tree, e.g. a `git archive` of it).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { RATE_LIMIT_RULES } from "../../../sdk/src/shared/rate-limit-rules";
import { areaOf, EXCLUDED, isSpecArea, OUT_OF_SCOPE } from "./areas";
import { startInbucket } from "./inbucket";
import { startSvixBridge } from "./svix";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../../..");
const args = process.argv.slice(2).filter((a) => a !== "--");
const checkout = args[0] ? resolve(args[0]) : "";
const filters = args.slice(1);
// The suite expects the API on localhost:{prefix}02 and its mock OAuth server on {prefix}14 (prefix 81).
const port = Number(process.env.COMPAT_PORT ?? 8102);
// NEXT_PUBLIC_STACK_PORT_PREFIX (the suite's own variable) moves the mail sink and the OAuth server with
// it, so two runs on one machine do not read each other's mail.
const portPrefix = process.env.NEXT_PUBLIC_STACK_PORT_PREFIX ?? "81";
const origin = `http://localhost:${port}`;
const runDir = join(here, ".run");

/** Stops what the run started (Doorman, the mail sink, the OAuth provider); set once they run. */
let cleanup: () => Promise<void> = async () => {};

function fail(message: string): never {
  console.error(`[compat] ${message}`);
  process.exit(2);
}

if (!checkout || !existsSync(join(checkout, "apps/e2e/tests/backend"))) {
  fail("usage: npm run compat:reference -- <path to a checkout of stack-auth/stack-auth> [test filters]");
}
if (!existsSync(join(here, "node_modules/@stackframe/stack-shared"))) {
  fail("the suite's packages are missing: run `npm ci --prefix test/compat/reference` first");
}

function referenceCommit(): string {
  if (process.env.REFERENCE_COMMIT) return process.env.REFERENCE_COMMIT;
  try {
    return execFileSync("git", ["-C", checkout, "rev-parse", "HEAD"], { encoding: "utf8" }).trim();
  } catch {
    return "unknown (set REFERENCE_COMMIT)";
  }
}

function killGroup(child: ChildProcess | null) {
  if (!child?.pid || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {}
}

async function waitForHealth(child: ChildProcess, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return false;
    try {
      const res = await fetch(`${origin}/api/v1/health`, { signal: AbortSignal.timeout(3000) });
      if (res.ok) return true;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

type AssertionResult = { status: string; fullName: string; failureMessages?: string[] };
type Report = { testResults: { name: string; assertionResults: AssertionResult[] }[] };

function summarise(report: Report) {
  const byArea = new Map<string, { passed: number; ran: number }>();
  const failures: string[] = [];
  for (const file of report.testResults) {
    const area = areaOf(relative(runDir, file.name));
    const row = byArea.get(area) ?? { passed: 0, ran: 0 };
    for (const t of file.assertionResults) {
      if (t.status !== "passed" && t.status !== "failed") continue;
      row.ran += 1;
      if (t.status === "passed") row.passed += 1;
      else
        failures.push(
          `${relative(join(runDir, "tests/backend"), file.name)} › ${t.fullName}\n    ${(t.failureMessages?.[0] ?? "").split("\n")[0]!.slice(0, 300)}`,
        );
    }
    byArea.set(area, row);
  }
  const pct = (r: { passed: number; ran: number }) => (r.ran ? ((100 * r.passed) / r.ran).toFixed(1) : "–");
  const rows = [...byArea.entries()].sort(([a], [b]) => a.localeCompare(b));
  const spec = { passed: 0, ran: 0 };
  const all = { passed: 0, ran: 0 };
  const lines = ["| Area | Spec area | Passed | Ran | % |", "|---|---|---:|---:|---:|"];
  for (const [area, r] of rows) {
    const inSpec = isSpecArea(area);
    if (inSpec) {
      spec.passed += r.passed;
      spec.ran += r.ran;
    }
    all.passed += r.passed;
    all.ran += r.ran;
    const kind = inSpec ? "yes" : OUT_OF_SCOPE.has(area) ? "out of scope" : "no";
    lines.push(`| ${area} | ${kind} | ${r.passed} | ${r.ran} | ${pct(r)} |`);
  }
  lines.push(`| **spec areas** | | **${spec.passed}** | **${spec.ran}** | **${pct(spec)}** |`);
  lines.push(`| **all** | | **${all.passed}** | **${all.ran}** | **${pct(all)}** |`);
  return { table: lines.join("\n"), failures, spec, all };
}

async function main() {
  rmSync(runDir, { recursive: true, force: true });
  mkdirSync(runDir, { recursive: true });
  symlinkSync(join(checkout, "apps/e2e/tests"), join(runDir, "tests"), "dir");
  // Stops tsconfig lookup here: the suite compiles with plain settings, not Doorman's test project.
  writeFileSync(
    join(runDir, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { target: "ES2022", module: "ESNext", jsx: "react-jsx" } }),
  );
  const commit = referenceCommit();

  // Where the suite's own Inbucket listens for SMTP ({prefix}29): its custom-SMTP projects send there.
  const mail = await startInbucket(Number(`${portPrefix}29`)).catch(() => startInbucket());
  console.log(`[compat] SMTP sink on 127.0.0.1:${mail.smtpPort}, Inbucket API on ${mail.url}`);

  const { startOidcDevServer } = await import("../../../scripts/oidc-dev-server.mjs");
  const oidc = await startOidcDevServer({ port: Number(`${portPrefix}14`), issuerHost: "localhost" }).catch(() => null);
  if (!oidc) console.warn("[compat] port 8114 is taken: OAuth tests will fail (npm start's own provider is used)");

  const state = join(runDir, "state");
  const doorman = spawn("node", ["scripts/start.mjs"], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PORT: String(port),
      DOORMAN_STATE_DIR: relative(root, state),
      SHARED_SMTP_HOST: "127.0.0.1",
      SHARED_SMTP_PORT: String(mail.smtpPort),
      // The suite expects purchase URLs on its dashboard's origin, localhost:{prefix}01 (8101 by default).
      WEB_APP_URL: `http://localhost:${process.env.NEXT_PUBLIC_STACK_PORT_PREFIX ?? "81"}01`,
      // The reference's test deployment paces send-email at 100,000 an hour (200 in production); delivery-info reads it.
      EMAIL_CAPACITY_PER_HOUR: "100000",
      ...(oidc ? { OAUTH_MOCK_ISSUER: oidc.issuer } : {}),
      // The suite signs its Stripe events with its backend's test secret (STACK_STRIPE_WEBHOOK_SECRET's default).
      STRIPE_WEBHOOK_SECRET: process.env.STACK_STRIPE_WEBHOOK_SECRET ?? "mock_stripe_webhook_secret",
      // The suite's passkeys are recorded against the fixed challenge "MOCK", as in the reference's
      // test setup (development-only: worker/config.ts refuses it in production).
      STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING: "true",
      // The suite drives ~1,000 sign-ups and sign-ins from one address within minutes; the reference
      // has no per-address limits in its test setup, so the deployment's limits are off (docs/compat.md).
      ...Object.fromEntries(Object.keys(RATE_LIMIT_RULES).map((rule) => [`RATE_LIMIT_${rule}`, "0"])),
      // The reference's suite signs in with passwords from clients with no device token (issue 29's new default).
      NEW_PROJECT_DEVICE_VERIFICATION: "false",
    },
  });
  const log: string[] = [];
  doorman.stdout!.on("data", (d: Buffer) => log.push(d.toString()));
  doorman.stderr!.on("data", (d: Buffer) => log.push(d.toString()));
  const stop = async () => {
    killGroup(doorman);
    await mail.stop();
    await oidc?.close();
  };
  cleanup = stop;
  process.on("SIGINT", () => void stop().then(() => process.exit(130)));

  console.log(`[compat] starting Doorman (npm start) on ${origin} …`);
  if (!(await waitForHealth(doorman, 240_000))) {
    console.error(log.join("").slice(-4000));
    await stop();
    fail("Doorman did not become healthy");
  }
  writeFileSync(join(runDir, "doorman.log"), "");
  doorman.stdout!.on("data", (d: Buffer) => writeFileSync(join(runDir, "doorman.log"), d, { flag: "a" }));
  doorman.stderr!.on("data", (d: Buffer) => writeFileSync(join(runDir, "doorman.log"), d, { flag: "a" }));

  const svix = await startSvixBridge(origin);
  const stopDoorman = cleanup;
  cleanup = async () => {
    await svix.stop();
    await stopDoorman();
  };
  const { DEV_PUBLISHABLE_CLIENT_KEY } = await import("../../../sdk/src/shared/constants");
  const { DEV_SECRET_SERVER_KEY, DEV_SUPER_SECRET_ADMIN_KEY } = await import("../../../worker/internal-seed");
  const reportFile = join(runDir, "report.json");
  const vitest = spawn(
    join(root, "node_modules/.bin/vitest"),
    ["run", "--config", join(here, "vitest.config.ts"), "--reporter=dot", "--reporter=json", `--outputFile.json=${reportFile}`, ...filters],
    {
      cwd: root,
      stdio: "inherit",
      env: {
        ...process.env,
        CI: "true",
        COMPAT_RUN_DIR: runDir,
        COMPAT_EXCLUDE: JSON.stringify(EXCLUDED.map((e) => e.glob)),
        STACK_BACKEND_BASE_URL: origin,
        STACK_DASHBOARD_BASE_URL: origin,
        STACK_INTERNAL_PROJECT_ID: "internal",
        STACK_INTERNAL_PROJECT_CLIENT_KEY: DEV_PUBLISHABLE_CLIENT_KEY,
        STACK_INTERNAL_PROJECT_SERVER_KEY: DEV_SECRET_SERVER_KEY,
        STACK_INTERNAL_PROJECT_ADMIN_KEY: DEV_SUPER_SECRET_ADMIN_KEY,
        STACK_INBUCKET_API_URL: mail.url,
        STACK_SVIX_SERVER_URL: svix.url,
        // Doorman's /health/email takes the operator's scheduler secret (CRON_SECRET).
        STACK_EMAIL_MONITOR_SECRET_TOKEN: "mock_cron_secret",
        CRON_SECRET: "mock_cron_secret",
      },
    },
  );
  const code = await new Promise<number>((r) => vitest.on("exit", (c) => r(c ?? 1)));
  await cleanup();
  if (!existsSync(reportFile)) fail(`vitest exited ${code} without a report`);
  const { table, failures, spec, all } = summarise(JSON.parse(readFileSync(reportFile, "utf8")) as Report);
  writeFileSync(join(runDir, "failures.txt"), failures.join("\n"));
  console.log(`\nReference backend suite against Doorman, ${new Date().toISOString().slice(0, 10)}, reference ${commit}\n`);
  console.log(table);
  console.log(`\nExcluded (not run):\n${EXCLUDED.map((e) => `- ${e.glob}: ${e.reason}`).join("\n")}`);
  console.log(`\nFailures: ${relative(root, join(runDir, "failures.txt"))}; Doorman's log: ${relative(root, join(runDir, "doorman.log"))}`);
  console.log(`spec areas ${spec.passed}/${spec.ran}, all ${all.passed}/${all.ran}`);
  process.exit(0);
}

main().catch(async (err) => {
  console.error(err);
  await cleanup().catch(() => {});
  process.exit(1);
});
