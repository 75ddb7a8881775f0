/**
 * The first hour of a new owner in the browser e2e (issue 28): `/` says what Doorman is; the
 * Overview's checklist leads to the Connect page, whose React quickstart carries the project id and
 * leaves the unknown publishable key empty, and whose .env block copies in one click; the page
 * passes axe at 1100 and 375 px; the assistant says up front that it has no model. A new key set's
 * panel asks before leaving (the console's dialog, the browser's beforeunload) until "I have copied
 * these keys" is ticked, and its Connect link fills the key in. "Require a verified email" is a switch;
 * the OAuth form shows the redirect URL to register, with Copy; an offer's "Test checkout" opens
 * /purchase/… in a new tab for the chosen user.
 */
import { join } from "node:path";
import { checkPage } from "./a11y-scenario.mjs";
import { adminApi, signUpOwnerWithProject } from "./console-owner.mjs";
import { assert } from "./harness.mjs";

export function defineConnectSteps(runner, { page, context, origin, shots }) {
  const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const stamp = Date.now().toString(36);
  const projectName = `Connect Shop ${stamp}`;
  let project = null;
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
  const envBlock = () => page.getByTestId("connect-env");

  runner.step("connect: the first visit to / says what Doorman is, with sign-up, sign-in and the console", async () => {
    await page.goto(`${origin}/handler/sign-out`);
    await page.waitForURL((url) => url.pathname === "/handler/sign-in" || url.pathname === "/");
    await page.goto(`${origin}/`);
    await page.getByRole("heading", { name: "Sign-in and user management for your apps" }).waitFor();
    assert.equal(new URL(page.url()).pathname, "/", "no redirect for a visitor");
    await page.getByRole("link", { name: "Create an account" }).waitFor();
    await page.getByRole("link", { name: "Open the console" }).waitFor();
    await page.getByRole("link", { name: "API reference" }).waitFor();
    assert.deepEqual(await checkPage(page, "/"), []);
    await shot("connect-00-landing");
  });

  runner.step(
    "connect: the Overview checklist opens Connect; the React .env has the project id, no made-up key, and copies in one click",
    async () => {
      project = await signUpOwnerWithProject(page, origin, {
        email: `connect-owner-${stamp}@example.com`,
        password: "connect-owner-pass-1",
        projectName,
      });
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
      await page.goto(`${origin}/projects/${project.projectId}`);
      await page.getByRole("link", { name: "Connect your app" }).click();
      await page.waitForURL((url) => url.pathname === `/projects/${project.projectId}/connect`);
      await page.getByRole("heading", { name: `Connect an app · ${projectName}` }).waitFor();
      assert.equal(
        await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Connect" }).getAttribute("aria-current"),
        "page",
      );
      await page.getByTestId("connect-key-status").getByRole("link", { name: "Create a key set" }).waitFor();

      const env = await envBlock().textContent();
      assert.match(env, new RegExp(`^VITE_DOORMAN_URL=${origin}$`, "m"));
      assert.match(env, new RegExp(`^VITE_DOORMAN_PROJECT_ID=${project.projectId}$`, "m"));
      assert.match(env, /^VITE_DOORMAN_PUBLISHABLE_CLIENT_KEY=$/m, "an unknown key is left empty");
      assert.doesNotMatch(env, /pck_/);
      await page.getByRole("button", { name: "Copy the .env block" }).click();
      await page.getByRole("button", { name: "Copied the .env block" }).waitFor();
      assert.equal(await clipboard(), `${env}\n`);

      const quickstarts = page.getByRole("navigation", { name: "Quickstarts" });
      await quickstarts.getByRole("link", { name: "Next.js" }).click();
      await page.getByRole("heading", { name: "Next.js", level: 2 }).waitFor();
      assert.equal(await quickstarts.getByRole("link", { name: "Next.js" }).getAttribute("aria-current"), "page");
      assert.match(await envBlock().textContent(), new RegExp(`^NEXT_PUBLIC_DOORMAN_PROJECT_ID=${project.projectId}$`, "m"));
      const hosted = page.getByRole("link", { name: "Open the hosted sign-in page" });
      assert.equal(await hosted.getAttribute("href"), `${origin}/p/${project.projectId}/handler/sign-in`);
      await quickstarts.getByRole("link", { name: "React (Vite)" }).click();
      await page.getByRole("heading", { name: "React (Vite)", level: 2 }).waitFor();
      assert.deepEqual(await checkPage(page, "/projects/:id/connect"), []);
      await shot("connect-01-react-quickstart");
    },
  );

  runner.step("connect: with no model, the assistant says so before the owner types, with a link to Settings", async () => {
    const toggle = page.getByRole("button", { name: "Assistant", exact: true });
    await toggle.click();
    const notice = page.getByTestId("assistant-not-configured");
    await notice.getByText("No model is set up for the assistant").waitFor();
    assert.equal(
      await notice.getByRole("link", { name: "Choose a model provider in Settings → Assistant" }).getAttribute("href"),
      `/projects/${project.projectId}/settings#assistant`,
    );
    assert.equal(await page.getByRole("complementary", { name: "Assistant" }).getByLabel("Ask the assistant").inputValue(), "");
    await toggle.click();
  });

  runner.step("connect: a new key set's panel asks before leaving until its keys are confirmed; its link fills the key in", async () => {
    await page.goto(`${origin}/projects/${project.projectId}/keys`);
    await page.getByLabel("Description", { exact: true }).fill("Web app");
    await page.getByRole("button", { name: "Create key set" }).click();
    const publishable = (await page.getByTestId("new-publishable-client-key").textContent()).trim();
    assert.match(publishable, /^pck_/);

    // A console link: the dialog asks, and "Stay" keeps the panel.
    await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Users" }).click();
    const dialog = page.getByRole("dialog", { name: "Leave without your keys?" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Stay and copy them" }).click();
    await dialog.waitFor({ state: "hidden" });
    assert.ok(new URL(page.url()).pathname.endsWith("/keys"));
    await page.getByTestId("new-publishable-client-key").waitFor();

    // Leaving the page itself (a reload, another address): the browser's beforeunload prompt.
    const prompted = new Promise((resolve) => {
      page.once("dialog", async (d) => {
        const type = d.type();
        await d.dismiss();
        resolve(type);
      });
    });
    await page.evaluate(() => {
      window.location.href = "/projects";
    });
    assert.equal(await prompted, "beforeunload");
    await page.waitForTimeout(300);
    assert.ok(new URL(page.url()).pathname.endsWith("/keys"), "dismissing the prompt stays on the page");
    await page.getByTestId("new-publishable-client-key").waitFor();

    // Confirmed: the link leaves without asking, and the Connect page has the key.
    await page.getByLabel("I have copied these keys").check();
    await page.getByRole("link", { name: "Connect an app with these keys" }).click();
    await page.getByRole("heading", { name: `Connect an app · ${projectName}` }).waitFor();
    assert.equal(await dialog.count(), 0);
    assert.match(await page.getByTestId("connect-key-status").textContent(), /Filled in: the key of “Web app”/);
    assert.match(await envBlock().textContent(), new RegExp(`^VITE_DOORMAN_PUBLISHABLE_CLIENT_KEY=${publishable}$`, "m"));
    await shot("connect-02-key-filled-in");
  });

  runner.step("connect: Sign-in methods has a 'Require a verified email' switch", async () => {
    await page.goto(`${origin}/projects/${project.projectId}/sign-in-methods`);
    const require = page.getByRole("checkbox", { name: "Require a verified email" });
    assert.equal(await require.isChecked(), false);
    await require.click();
    await page.locator(".toasts").getByText("Require a verified email turned on.").waitFor();
    const current = await adminApi(origin, project)("/internal/projects/current");
    assert.equal(current.body.config.require_email_verification, true);
    await page.reload();
    assert.equal(await page.getByRole("checkbox", { name: "Require a verified email" }).isChecked(), true);
    await page.getByRole("checkbox", { name: "Require a verified email" }).click();
    await page.locator(".toasts").getByText("Require a verified email turned off.").waitFor();
    assert.equal((await adminApi(origin, project)("/internal/projects/current")).body.config.require_email_verification, false);
  });

  runner.step("connect: the OAuth form shows the redirect URL to register with own keys, with Copy", async () => {
    await page.goto(`${origin}/projects/${project.projectId}/sign-in-methods`);
    const form = page.getByRole("form", { name: "Add a provider" });
    await form.getByLabel("Provider", { exact: true }).selectOption("github");
    assert.equal(await form.getByTestId("oauth-redirect-url").count(), 0, "shared keys need no redirect URL");
    await form.getByLabel("My own client id and secret").check();
    const expected = `${origin}/api/v1/auth/oauth/callback/github`;
    assert.equal((await form.getByTestId("oauth-redirect-url").textContent()).trim(), expected);
    await form.getByRole("button", { name: "Copy the GitHub redirect URL" }).click();
    await form.getByRole("button", { name: "Copied the GitHub redirect URL" }).waitFor();
    assert.equal(await clipboard(), expected);
  });

  runner.step("connect: an offer's test checkout opens /purchase/… in a new tab for the chosen user", async () => {
    const admin = adminApi(origin, project);
    const email = `connect-buyer-${stamp}@example.com`;
    const user = await admin("/users", { method: "POST", body: { primary_email: email, display_name: "Connect Buyer" } });
    assert.equal(user.status, 201, JSON.stringify(user.body));
    const offer = {
      displayName: "Starter plan",
      customerType: "user",
      serverOnly: false,
      stackable: false,
      prices: { monthly: { USD: "9.00", interval: [1, "month"] } },
      includedItems: {},
    };
    const set = await admin("/internal/config/override/environment", {
      method: "PATCH",
      body: { config_override_string: JSON.stringify({ "payments.products.starter": offer }) },
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));

    await page.goto(`${origin}/projects/${project.projectId}/payments`);
    await page.getByRole("button", { name: "Test checkout of offer starter" }).click();
    const panel = page.getByRole("region", { name: "Test checkout: Starter plan" });
    await panel.getByLabel("Find a user").fill(email);
    await panel.getByRole("button", { name: `Choose Connect Buyer (${email})` }).click();
    const [tab] = await Promise.all([context.waitForEvent("page"), panel.getByRole("button", { name: "Open a test checkout" }).click()]);
    await tab.waitForURL((url) => url.pathname.startsWith("/purchase/"));
    await tab.getByRole("heading", { name: "Starter plan" }).waitFor();
    await tab.getByText("Test mode", { exact: true }).waitFor();
    assert.equal(await tab.evaluate(() => window.opener), null, "the purchase page cannot reach the console");
    const link = await panel.getByTestId("test-checkout-url").getAttribute("href");
    assert.equal(new URL(link).pathname, new URL(tab.url()).pathname);
    await tab.close();
  });
}
