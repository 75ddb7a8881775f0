#!/usr/bin/env node
/**
 * Browser end-to-end test of the handler pages and the dashboard (TOOLCHAIN §5, §6):
 * starts the stack (build → migrations into a fresh state dir → wrangler pages dev),
 * drives Debian's Chromium with playwright-core through sign-up, profile edit, sign-out,
 * sign-in, and project creation with its one-time keys. Screenshots go to test-results/.
 * Ends with "N passed, N failed"; exits non-zero on any failure.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";
import { routeInternalMailTo, startMail } from "./mail.mjs";
import { defineScenario } from "./scenario.mjs";
import { startStack } from "./stack.mjs";

const root = resolve(import.meta.dirname, "../..");
const shots = join(root, "test-results");
mkdirSync(shots, { recursive: true });

let stack = null;
let mail = null;
let context = null;
let profile = null;
const cleanup = async () => {
  await context?.close().catch(() => {});
  if (profile) rmSync(profile, { recursive: true, force: true });
  await stack?.stop();
  await mail?.stop();
};
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => {
    cleanup().finally(() => process.exit(130));
  });
}

let result = { passed: 0, failed: 1 };
try {
  stack = await startStack();
  console.log(`# stack ready at ${stack.origin}`);
  mail = await startMail();
  await routeInternalMailTo(stack.origin, mail.port);
  console.log(`# internal project's email goes to the SMTP sink on port ${mail.port}`);
  profile = mkdtempSync(join(tmpdir(), "chromium-profile-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    headless: true,
    viewport: { width: 1100, height: 800 },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(15_000);
  const browserErrors = [];
  page.on("pageerror", (err) => browserErrors.push(String(err)));
  const runner = defineScenario({ page, context, origin: stack.origin, shots, mail });
  result = await runner.run(async (name) => {
    const file = join(shots, `failure-${name.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}.png`);
    await page.screenshot({ path: file, fullPage: true });
    console.log(`  # url: ${page.url()}\n  # screenshot: ${file}`);
    if (browserErrors.length) console.log(`  # page errors:\n${browserErrors.map((e) => `  #   ${e}`).join("\n")}`);
    const log = stack.log().split("\n").slice(-40).join("\n");
    console.log(log.replace(/^/gm, "  # wrangler: "));
  });
} catch (error) {
  console.log(`not ok - could not run the scenario\n${String(error?.stack ?? error).replace(/^/gm, "  # ")}`);
  result = { passed: result.passed, failed: Math.max(1, result.failed) };
} finally {
  await cleanup();
}
console.log(`${result.passed} passed, ${result.failed} failed`);
process.exit(result.failed === 0 ? 0 : 1);
