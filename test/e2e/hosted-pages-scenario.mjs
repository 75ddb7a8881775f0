/**
 * Hosted pages per project (issue 28), as a new owner: create a project in the console, point its
 * email at the SMTP sink and trust a tiny app this test serves itself; open the project's hosted
 * sign-up page (themed with its name), sign up an end user who gets a real email, verifies from its
 * link and lands back on the app; the user shows in the console. An untrusted after_auth_return_to
 * is dropped, an unknown project is a 404 page, and axe passes on the hosted pages at 1100 and
 * 375 px. Then the same through a custom domain's Host: a second Chromium resolves
 * auth-….example.test to the stack, so the page's Host is the custom domain and the port the stack's.
 */
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { checkPage } from "./a11y-scenario.mjs";
import { signUpOwnerWithProject } from "./console-owner.mjs";
import { assert } from "./harness.mjs";
import { linkIn } from "./mail.mjs";

/**
 * The page script of the tiny app's `/sdk` page: the SDK (bundled from sdk/src) with `hostedPages`,
 * which signs in with the session the hosted pages hand back and shows who is signed in.
 */
const SDK_PAGE_SCRIPT = `
import { StackClientApp } from "./sdk/src/index.ts";
const config = JSON.parse(document.getElementById("config").textContent);
const app = new StackClientApp({ projectId: config.projectId, baseUrl: config.doorman, tokenStore: "cookie", hostedPages: true });
const who = document.getElementById("who");
document.getElementById("sign-in").addEventListener("click", () => void app.redirectToSignIn());
const handoff = await app.callHostedPagesCallback();
if (handoff.status === "error") document.getElementById("handoff-error").textContent = handoff.error.code;
const user = await app.getUser();
who.textContent = user ? "Signed in as " + user.primaryEmail : "Signed out";
`;

/** The page script, bundled once with esbuild (the SDK as an app would ship it). */
async function bundleSdkPage() {
  const { build } = await import("esbuild");
  const out = await build({
    stdin: {
      contents: SDK_PAGE_SCRIPT,
      resolveDir: fileURLToPath(new URL("../..", import.meta.url)),
      sourcefile: "tiny-app.mjs",
      loader: "js",
    },
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  return out.outputFiles[0].text;
}

const escapeHtml = (s) => s.replace(/[<>&"]/g, "");

/**
 * A stand-in for the project's app: any path answers a page that says where it is; `/sdk` runs the
 * SDK with `hostedPages` (its config: the project and Doorman's origin), `/sdk.js` is its script.
 */
async function startTinyApp(doorman) {
  const script = await bundleSdkPage();
  const config = { projectId: "", doorman };
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://tiny").pathname;
    if (path === "/sdk.js") {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8" });
      res.end(script);
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    if (path === "/sdk") {
      res.end(
        `<!doctype html><html lang="en"><title>Tiny SDK app</title><h1>Tiny SDK app</h1>` +
          `<script type="application/json" id="config">${JSON.stringify(config).replace(/</g, "\\u003c")}</script>` +
          `<p id="who">Loading…</p><p id="handoff-error"></p><button id="sign-in">Sign in</button>` +
          `<script type="module" src="/sdk.js"></script></html>`,
      );
      return;
    }
    res.end(`<!doctype html><html lang="en"><title>Tiny app</title><h1>Tiny app at ${escapeHtml(req.url ?? "")}</h1></html>`);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      server.unref();
      resolve({
        origin: `http://127.0.0.1:${server.address().port}`,
        config,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections();
            server.close(r);
          }),
      });
    });
  });
}

export function defineHostedPagesSteps(runner, { page, origin, mail, shots }) {
  const stamp = Date.now().toString(36);
  const owner = { email: `hosted-owner-${stamp}@example.com`, password: "hosted-owner-password" };
  const endUser = { email: `hosted-user-${stamp}@example.com`, password: "hosted-user-password" };
  const domainUser = { email: `hosted-domain-user-${stamp}@example.com`, password: "hosted-domain-password" };
  const customHost = `auth-${stamp}.example.test`;
  const input = (p, label) => p.getByLabel(label, { exact: true });
  const state = { projectId: "", app: null, browser: null };
  const hostedBase = () => `${origin}/p/${state.projectId}/handler`;

  /** Signs up on a hosted sign-up page, verifies from the real email, and checks where each step lands. */
  async function signUpAndVerify(p, { base, user, label }) {
    const back = `${state.app.origin}/welcome?from=${label}`;
    await p.goto(`${base}/sign-up?after_auth_return_to=${encodeURIComponent(back)}`);
    await p.getByRole("link", { name: "Hosted Shop" }).waitFor();
    assert.match(await p.title(), /Sign up · Hosted Shop/);
    await input(p, "Email").fill(user.email);
    await input(p, "Password").fill(user.password);
    await input(p, "Repeat password").fill(user.password);
    await p.getByRole("button", { name: "Sign up", exact: true }).click();
    // After sign-up: back to the app's page that sent the user here.
    await p.waitForURL(back);
    await p.getByRole("heading", { name: `Tiny app at /welcome?from=${label}` }).waitFor();
    const verify = await mail.waitFor(user.email, /Verify/);
    const link = linkIn(verify);
    assert.ok(link.startsWith(`${base}/email-verification?code=`), `the email links to the hosted page: ${link}`);
    await p.goto(link);
    await p.getByRole("button", { name: "Verify my email" }).click();
    await p.getByRole("heading", { name: "Email verified" }).waitFor();
    await p.getByRole("link", { name: "Continue" }).click();
    // Continue leads to the app (the project's first trusted domain).
    await p.waitForURL((url) => url.origin === state.app.origin);
  }

  runner.step("hosted: a new owner creates a project, points its email at the sink and trusts its app", async () => {
    state.app = await startTinyApp(origin);
    const created = await signUpOwnerWithProject(page, origin, { ...owner, projectName: "Hosted Shop" });
    state.projectId = created.projectId;
    state.app.config.projectId = state.projectId;
    await page.goto(`${origin}/projects/${state.projectId}/emails`);
    await page.getByLabel("My own SMTP server").check();
    await input(page, "SMTP host").fill("127.0.0.1");
    await input(page, "Port").fill(String(mail.port));
    await input(page, "Password").fill("unused");
    await input(page, "Sender name").fill("Hosted Shop");
    await input(page, "Sender email").fill("shop@doorman.localhost");
    await page.getByRole("button", { name: "Save email server" }).click();
    await page.locator(".toast").filter({ hasText: "Email server saved." }).waitFor();
    await page.goto(`${origin}/projects/${state.projectId}/domains`);
    await input(page, "Domain URL").fill(state.app.origin);
    await page.getByRole("button", { name: "Add domain" }).click();
    await page
      .locator(".toast")
      .filter({ hasText: `${state.app.origin} is trusted.` })
      .waitFor();
    // The hosted pages section shows the project's hosted URL.
    await page.getByRole("link", { name: `${hostedBase()}/sign-in` }).waitFor();
  });

  runner.step("hosted: sign up on the project's hosted page, verify from the real email, land back on the app", async () => {
    await signUpAndVerify(page, { base: hostedBase(), user: endUser, label: "hosted" });
    await page.screenshot({ path: `${shots}/hosted-01-app.png` });
  });

  runner.step("hosted: an SDK app on another origin (hostedPages) is signed in after hosted sign-in, by the session handoff", async () => {
    const appPage = `${state.app.origin}/sdk`;
    const who = page.locator("#who");
    await page.goto(appPage);
    await page.getByText("Signed out").waitFor();
    await page.getByRole("button", { name: "Sign in" }).click();
    // The hosted sign-in page, asked for the session back (PKCE challenge and state beside the return URL).
    await page.waitForURL((url) => url.pathname === `/p/${state.projectId}/handler/sign-in`);
    const asked = new URL(page.url()).searchParams;
    assert.equal(asked.get("after_auth_return_to"), appPage);
    assert.ok(asked.get("cross_domain_code_challenge") && asked.get("cross_domain_state"), "the handoff request is on the hosted page");
    // Signed in there already (the sign-up above): the hosted page hands its session over at once.
    await page.waitForURL((url) => url.origin === state.app.origin);
    await who.filter({ hasText: `Signed in as ${endUser.email}` }).waitFor();
    // The code and state are gone from the address.
    assert.equal(page.url(), appPage);
    assert.equal(await page.locator("#handoff-error").textContent(), "");
    await page.screenshot({ path: `${shots}/hosted-03-sdk-app.png` });
  });

  runner.step("hosted: hosted sign-in with the form hands the session to the SDK app; a replayed code is refused", async () => {
    const appPage = `${state.app.origin}/sdk`;
    // Sign out on the hosted origin, and forget the app's session: a fresh start on both.
    await page.goto(`${hostedBase()}/sign-out`);
    await page.waitForURL((url) => url.pathname !== `/p/${state.projectId}/handler/sign-out`);
    await page.context().clearCookies({ domain: "127.0.0.1" });
    await page.goto(appPage);
    await page.getByText("Signed out").waitFor();
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => url.pathname === `/p/${state.projectId}/handler/sign-in`);
    await input(page, "Email").fill(endUser.email);
    await input(page, "Password").fill(endUser.password);
    let landing = "";
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame() && frame.url().includes("code=")) landing = frame.url();
    });
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page
      .locator("#who")
      .filter({ hasText: `Signed in as ${endUser.email}` })
      .waitFor();
    assert.equal(page.url(), appPage);
    assert.ok(landing.includes("stack_cross_domain_auth=1"), `the app was reached with the handoff code: ${landing}`);
    // The same address again (back button, a shared link): the state is used up, a known error, no new session.
    await page.context().clearCookies({ domain: "127.0.0.1" });
    await page.goto(landing);
    await page.locator("#handoff-error").filter({ hasText: "OUTER_OAUTH_TIMEOUT" }).waitFor();
    await page.getByText("Signed out").waitFor();
    assert.equal(page.url(), appPage);
  });

  runner.step("hosted: the end user shows in the console, whose own session the hosted one did not touch", async () => {
    await page.goto(`${origin}/projects/${state.projectId}/users`);
    await page.getByRole("heading", { name: "Users · Hosted Shop" }).waitFor();
    await page.getByText(endUser.email).first().waitFor();
  });

  runner.step("hosted: an untrusted after_auth_return_to is dropped; an unknown project is a 404 page", async () => {
    await page.goto(`${hostedBase()}/sign-in?after_auth_return_to=${encodeURIComponent("https://evil.example.net/steal")}`);
    await page.getByRole("link", { name: "Hosted Shop" }).waitFor();
    assert.equal(new URL(page.url()).searchParams.get("after_auth_return_to"), null);
    assert.equal(new URL(page.url()).pathname, `/p/${state.projectId}/handler/sign-in`);
    const res = await page.goto(`${origin}/p/00000000-0000-4000-8000-000000000000/handler/sign-in`);
    assert.equal(res?.status(), 404);
    await page.getByRole("heading", { name: "Page not found" }).waitFor();
  });

  runner.step("hosted: axe passes on the hosted sign-up, sign-in and forgot-password pages at 1100 and 375 px", async () => {
    const problems = [];
    for (const name of ["sign-up", "sign-in", "forgot-password"]) {
      await page.goto(`${hostedBase()}/${name}`);
      await page.getByRole("link", { name: "Hosted Shop" }).waitFor();
      problems.push(...(await checkPage(page, `hosted ${name}`)));
    }
    await page.goto(`${hostedBase()}/account-settings`);
    problems.push(...(await checkPage(page, "hosted account-settings (signed in)")));
    assert.deepEqual(problems, []);
  });

  runner.step("hosted: the owner maps a custom domain in the console (a malformed one is marked on the field)", async () => {
    await page.goto(`${origin}/projects/${state.projectId}/domains`);
    const field = input(page, "Hostname");
    await field.fill("https://auth.example.com/");
    await page.getByRole("button", { name: "Use this domain" }).click();
    assert.equal(await field.getAttribute("aria-invalid"), "true");
    await field.fill(customHost);
    await page.getByRole("button", { name: "Use this domain" }).click();
    await page
      .locator(".toast")
      .filter({ hasText: `${customHost} now serves the hosted pages.` })
      .waitFor();
    await page.getByRole("link", { name: `https://${customHost}/handler/sign-in` }).waitFor();
  });

  runner.step("hosted: through the custom domain's Host, / goes to sign-in, sign-up and verification return to the app", async () => {
    const port = new URL(origin).port;
    state.browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", `--host-resolver-rules=MAP ${customHost} 127.0.0.1`],
    });
    const context = await state.browser.newContext({ viewport: { width: 1100, height: 800 } });
    const p = await context.newPage();
    p.setDefaultTimeout(15_000);
    const domainOrigin = `http://${customHost}:${port}`;
    p.on("console", (m) => process.env.E2E_DEBUG && console.log("  # console:", m.text()));
    p.on("pageerror", (e) => process.env.E2E_DEBUG && console.log("  # pageerror:", String(e)));
    await p.goto(`${domainOrigin}/`);
    await p.waitForURL(`${domainOrigin}/handler/sign-in`);
    await p.getByRole("link", { name: "Hosted Shop" }).waitFor();
    await signUpAndVerify(p, { base: `${domainOrigin}/handler`, user: domainUser, label: "custom-domain" }).catch(async (e) => {
      await p.screenshot({ path: `${shots}/failure-hosted-custom-domain.png`, fullPage: true });
      throw e;
    });
    // The owners' console is not served on a project's domain.
    const consolePage = await p.goto(`${domainOrigin}/projects`);
    assert.equal(consolePage?.status(), 404);
    // Nor another project's hosted pages; the project's own /p/ path goes to the domain's /handler.
    assert.equal((await p.goto(`${domainOrigin}/p/internal-not-here/handler/sign-in`))?.status(), 404);
    await p.goto(`${domainOrigin}/p/${state.projectId}/handler/forgot-password`);
    await p.waitForURL(`${domainOrigin}/handler/forgot-password`);
    assert.deepEqual(await checkPage(p, "custom-domain forgot-password"), []);
    await p.screenshot({ path: `${shots}/hosted-02-custom-domain.png` });
    await state.browser.close();
    state.browser = null;
  });

  runner.step("hosted: the custom domain's user shows in the console too", async () => {
    await page.goto(`${origin}/projects/${state.projectId}/users`);
    await page.getByText(domainUser.email).first().waitFor();
    await state.app.close();
  });
}
