/**
 * CLI login in the browser e2e. The CLI side is the SDK's real `promptCliLogin`, running here in
 * the Node e2e process: the SDK is TypeScript and Node 20 cannot strip types, so it is bundled on
 * the fly with esbuild (which vite already brings) into a temporary ES module and imported.
 * The browser side is the /handler/cli-auth-confirm page: a signed-in user authorizes; a
 * signed-out visitor goes through sign-up and comes back to the page, cancels, then authorizes.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { assert } from "./harness.mjs";

const root = resolve(import.meta.dirname, "../..");
const CLIENT = { projectId: "internal", publishableClientKey: "this-publishable-client-key-is-for-local-development-only" };

/** The SDK's promptCliLogin, compiled from sdk/src/cli-login.ts. */
async function loadPromptCliLogin() {
  const { build } = await import("esbuild");
  const out = await build({
    entryPoints: [join(root, "sdk/src/cli-login.ts")],
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    write: false,
    logLevel: "silent",
  });
  const dir = mkdtempSync(join(tmpdir(), "doorman-cli-sdk-"));
  const file = join(dir, "cli-login.mjs");
  writeFileSync(file, out.outputFiles[0].text);
  try {
    return (await import(pathToFileURL(file).href)).promptCliLogin;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Starts a CLI login in the background; resolves `link` once the CLI prints it. */
function startCli(promptCliLogin, origin) {
  let gotLink;
  const link = new Promise((r) => {
    gotLink = r;
  });
  const token = promptCliLogin({ appUrl: origin, ...CLIENT, waitTimeMillis: 1000, promptLink: gotLink });
  token.catch(() => undefined); // awaited by the step; avoid an unhandled rejection meanwhile
  return { link, token };
}

/** Whether `promise` is still pending after `ms`. */
async function stillPending(promise, ms) {
  const pending = Symbol("pending");
  return (
    (await Promise.race([
      promise.then(
        () => "settled",
        () => "settled",
      ),
      new Promise((r) => setTimeout(() => r(pending), ms)),
    ])) === pending
  );
}

async function api(origin, path, headers = {}, method = "GET") {
  const res = await fetch(`${origin}/api/v1${path}`, {
    method,
    headers: {
      "x-stack-project-id": CLIENT.projectId,
      "x-stack-access-type": "client",
      "x-stack-publishable-client-key": CLIENT.publishableClientKey,
      ...headers,
    },
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** The user a CLI refresh token belongs to: refresh it at /auth/sessions/current/refresh, then read /users/me. */
async function userOfRefreshToken(origin, refreshToken) {
  const refreshed = await api(origin, "/auth/sessions/current/refresh", { "x-stack-refresh-token": refreshToken }, "POST");
  assert.equal(refreshed.status, 200, `refreshing the CLI's token should work, got ${refreshed.status}`);
  const me = await api(origin, "/users/me", { "x-stack-access-token": refreshed.body.access_token });
  assert.equal(me.status, 200);
  return me.body;
}

/** The browser's signed-in user, read with the page's own access-token cookie. */
function browserUser(page) {
  return page.evaluate(async (client) => {
    const token = decodeURIComponent(
      document.cookie
        .split("; ")
        .find((c) => c.startsWith("stack-access="))
        ?.split("=")[1] ?? "",
    );
    const res = await fetch("/api/v1/users/me", {
      headers: { "x-stack-project-id": client.projectId, "x-stack-access-type": "client", "x-stack-access-token": token },
    });
    return res.json();
  }, CLIENT);
}

export function defineCliSteps(runner, { page, context, origin, shots }) {
  const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const input = (label) => page.getByLabel(label, { exact: true });
  let promptCliLogin = null;
  // The browser's cookies before these steps (signed in or not): put back at the end, so later
  // steps find the state earlier steps left.
  let saved = [];

  runner.step("cli: signed out, the confirm page goes through sign-up and back; Cancel leaves the CLI waiting", async () => {
    promptCliLogin = await loadPromptCliLogin();
    saved = await context.cookies();
    await context.clearCookies();
    const cli = startCli(promptCliLogin, origin);
    const link = await cli.link;
    assert.match(link, /\/handler\/cli-auth-confirm\?login_code=[0-9a-z]{45}$/);
    await page.goto(link);
    await page.waitForURL((url) => url.pathname === "/handler/sign-in");
    const returnTo = new URL(page.url()).searchParams.get("after_auth_return_to") ?? "";
    assert.ok(
      returnTo.startsWith("/handler/cli-auth-confirm?login_code="),
      `after_auth_return_to should be the confirm page, got ${returnTo}`,
    );
    await page.getByRole("link", { name: "Sign up", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/handler/sign-up");
    const email = `cli-${Date.now().toString(36)}@example.com`;
    await input("Email").fill(email);
    await input("Password").fill("cli-e2e-password-1");
    await input("Repeat password").fill("cli-e2e-password-1");
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/handler/cli-auth-confirm");
    await page.getByRole("heading", { name: "Authorize the CLI?" }).waitFor();
    await page
      .locator("p.stack-subtitle")
      .filter({ hasText: `A command-line tool is asking to sign in as ${email}.` })
      .waitFor();
    await shot("cli-01-authorize");

    await page.getByRole("button", { name: "Cancel", exact: true }).click();
    await page.getByRole("heading", { name: "CLI login cancelled" }).waitFor();
    assert.ok(await stillPending(cli.token, 1000), "cancelling does not sign the CLI in");

    await page.reload();
    await page.getByRole("button", { name: "Authorize", exact: true }).click();
    await page.getByRole("heading", { name: "CLI authorized" }).waitFor();
    assert.equal((await userOfRefreshToken(origin, await cli.token)).primary_email, email);
  });

  runner.step("cli: a signed-in user authorizes at once; the token works; the link is then used up", async () => {
    try {
      const me = await browserUser(page);
      assert.ok(me?.id, "signed in by the previous step");
      const cli = startCli(promptCliLogin, origin);
      const link = await cli.link;
      await page.goto(link);
      await page.getByRole("button", { name: "Authorize", exact: true }).waitFor();
      assert.ok(await stillPending(cli.token, 700), "the CLI keeps waiting until the person authorizes");
      await page.getByRole("button", { name: "Authorize", exact: true }).click();
      await page.getByRole("heading", { name: "CLI authorized" }).waitFor();
      await shot("cli-02-authorized");
      assert.equal((await userOfRefreshToken(origin, await cli.token)).id, me.id);
      // The link is one-shot: opening it again says so.
      await page.goto(link);
      await page.getByRole("alert").filter({ hasText: "This CLI login has already been completed." }).waitFor();
    } finally {
      await context.clearCookies();
      await context.addCookies(saved);
    }
  });
}
