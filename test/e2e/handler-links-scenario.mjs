/**
 * Handler pages rendered on the server, and emailed links that survive mail scanners: the
 * sign-in page's first HTML already has the form with the project's enabled methods (no
 * "Loading…", no hydration error, no layout shift); a magic link opened by a scanner (a plain
 * GET, and a page that runs the check without clicking) still signs in after the click, and a
 * used link says so with the next step.
 */
import { join } from "node:path";
import { assert } from "./harness.mjs";
import { linkIn } from "./mail.mjs";

const HYDRATION_PROBLEM = /hydrat|did not match|Minified React error #(418|419|422|423|425)/i;

export function defineHandlerLinkSteps(runner, { page, origin, shots, mail, account }) {
  const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const input = (label) => page.getByLabel(label, { exact: true });
  const scannedEmail = `scanned-${Date.now().toString(36)}@example.com`;

  runner.step("handler ssr: the sign-in page's server HTML has the form and the enabled methods", async () => {
    await page.goto(`${origin}/handler/sign-out`);
    await page.waitForURL((url) => url.pathname === "/handler/sign-in" || url.pathname === "/");
    const project = await (
      await fetch(`${origin}/api/v1/projects/current`, {
        headers: {
          "x-stack-project-id": "internal",
          "x-stack-access-type": "client",
          "x-stack-publishable-client-key": "this-publishable-client-key-is-for-local-development-only",
        },
      })
    ).json();
    // A plain GET, as a crawler or a browser before any script runs.
    const html = await (await fetch(`${origin}/handler/sign-in`)).text();
    assert.ok(!html.includes("Loading…"), "the server HTML has no loader");
    assert.match(html, /<h1>Sign in to your account<\/h1>/);
    assert.match(html, /<form[^>]*aria-label="Sign in"/);
    assert.match(html, /type="password"/);
    assert.equal(html.includes("Email me a sign-in code instead"), project.config.magic_link_enabled === true);
    for (const provider of project.config.enabled_oauth_providers ?? []) {
      assert.ok(html.includes(`data-provider="${provider.id}"`), `the ${provider.id} button is rendered on the server`);
    }

    // The same page in Chromium with every script blocked: the form is there and usable-looking.
    const bare = await page.context().newPage();
    await bare.route("**/*", (route) => (route.request().resourceType() === "script" ? route.abort() : route.continue()));
    await bare.goto(`${origin}/handler/sign-in`);
    await bare.getByRole("heading", { name: "Sign in to your account" }).waitFor();
    await bare.getByLabel("Email", { exact: true }).waitFor();
    await bare.getByLabel("Password", { exact: true }).waitFor();
    assert.equal(await bare.getByText("Loading…").count(), 0);
    await bare.screenshot({ path: join(shots, "30-sign-in-without-js.png"), fullPage: true });
    await bare.close();
  });

  runner.step("handler ssr: the page hydrates without a mismatch or a layout shift", async () => {
    const problems = [];
    const onConsole = (msg) => msg.type() === "error" && HYDRATION_PROBLEM.test(msg.text()) && problems.push(msg.text());
    const onError = (err) => HYDRATION_PROBLEM.test(String(err)) && problems.push(String(err));
    page.on("console", onConsole);
    page.on("pageerror", onError);
    try {
      await page.goto(`${origin}/handler/sign-in`);
      await page.getByRole("heading", { name: "Sign in to your account" }).waitFor();
      // Hydrated: the button reacts (client-side validation marks the empty email).
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      assert.equal(await input("Email").getAttribute("aria-invalid"), "true");
      const shift = await page.evaluate(
        () =>
          new Promise((resolve) => {
            let total = 0;
            new PerformanceObserver((list) => {
              for (const entry of list.getEntries()) if (!entry.hadRecentInput) total += entry.value;
            }).observe({ type: "layout-shift", buffered: true });
            setTimeout(() => resolve(total), 500);
          }),
      );
      assert.ok(shift < 0.01, `cumulative layout shift ${shift}`);
      assert.deepEqual(problems, []);
    } finally {
      page.off("console", onConsole);
      page.off("pageerror", onError);
    }
  });

  runner.step("handler links: a scanner opening the magic link does not use it; the click signs in", async () => {
    await page.goto(`${origin}/handler/sign-in`);
    await page.getByRole("button", { name: "Email me a sign-in code instead" }).click();
    await input("Email").fill(scannedEmail);
    await page.getByRole("button", { name: "Email me a sign-in code" }).click();
    const link = linkIn(await mail.waitFor(scannedEmail, /^Sign in to /));
    // A scanner's plain GET, then a scanner that runs the page's scripts without clicking.
    assert.equal((await fetch(link)).status, 200);
    const scanner = await page.context().newPage();
    await scanner.goto(link);
    await scanner.getByRole("button", { name: "Sign in", exact: true }).and(scanner.locator(":enabled")).waitFor();
    await scanner.close();
    // The person: the page asks for one click.
    await page.goto(link);
    await page.getByRole("heading", { name: "Sign in", exact: true }).waitFor();
    const button = page.getByRole("button", { name: "Sign in", exact: true });
    await button.and(page.locator(":enabled")).waitFor();
    await shot("31-magic-link-click");
    await button.click();
    await page.waitForURL((url) => url.pathname === "/handler/account-settings");
    assert.equal(await input("Email").inputValue(), scannedEmail);
  });

  runner.step("handler links: a used link says so and offers sign-in", async () => {
    const link = linkIn(await mail.waitFor(scannedEmail, /^Sign in to /));
    await page.goto(`${origin}/handler/sign-out`);
    await page.waitForURL((url) => url.pathname === "/handler/sign-in" || url.pathname === "/");
    await page.goto(link);
    await page.getByRole("alert").filter({ hasText: "This link was already used." }).waitFor();
    await shot("32-magic-link-used");
    await page.getByRole("link", { name: "Sign in", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/handler/sign-in");
    // Back to the scenario's account for the steps that follow.
    await input("Email").fill(account.email);
    await input("Password").fill(account.password());
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/projects");
  });
}
