/**
 * Bot protection (Turnstile) in Chromium, on a project's hosted sign-up page, against the local
 * Turnstile (test/turnstile-fake.mjs, started by stack.mjs): Turnstile required on sign-up, the
 * invisible key is Cloudflare's always-failing one, so the page shows the visible widget in its card
 * (the fake's 3x…FF key: a button to click), and the sign-up goes through; with the always-failing
 * secret (2x…AA) the same page says plainly that it could not confirm a person.
 */
import { join } from "node:path";
import { adminApi, signUpOwnerWithProject } from "./console-owner.mjs";
import { assert } from "./harness.mjs";

const FAILED = "We could not confirm that you are a person. Please try again.";

export function defineTurnstileSteps(runner, { page, origin, shots }) {
  let project = null;
  let api = null;
  const input = (label) => page.getByLabel(label, { exact: true });
  const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const protect = async (secretKey) => {
    const res = await api("/internal/config/override/environment", {
      method: "PATCH",
      body: {
        config_override_string: JSON.stringify({
          "doorman.protection.turnstile.siteKey": "3x00000000000000000000FF",
          "doorman.protection.turnstile.invisibleSiteKey": "2x00000000000000000000BB",
          "doorman.protection.turnstile.secretKey": secretKey,
          "doorman.protection.turnstile.require.signUp": true,
        }),
      },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };
  const fillSignUp = async (email) => {
    await page.goto(`${origin}/p/${project.projectId}/handler/sign-up`);
    await input("Email").fill(email);
    await input("Password").fill("correct-horse-battery");
    await input("Repeat password").fill("correct-horse-battery");
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
  };

  runner.step("turnstile: a project requires a token on sign-up (Cloudflare's test keys, local siteverify)", async () => {
    const owner = `turnstile-owner-${Date.now().toString(36)}@example.com`;
    project = await signUpOwnerWithProject(page, origin, { email: owner, password: "correct-horse-battery", projectName: "Turnstile" });
    api = adminApi(origin, project);
    await protect("1x0000000000000000000000000000000AA");
    const view = await fetch(`${origin}/api/v1/projects/current`, {
      headers: { "x-stack-project-id": project.projectId, "x-stack-access-type": "client" },
    });
    const body = await view.json();
    assert.equal(body.config.bot_challenge.site_key, "3x00000000000000000000FF");
    assert.ok(!JSON.stringify(body).includes("1x0000000000000000000000000000000AA"), "the secret is never sent to clients");
  });

  runner.step("turnstile: the hosted sign-up page shows the widget in its card and signs up", async () => {
    await page.goto(`${origin}/handler/sign-out`);
    await fillSignUp(`turnstile-user-${Date.now().toString(36)}@example.com`);
    // The invisible key fails, so the visible widget renders in the card; its button is the challenge.
    const widget = page.locator(".stack-bot-challenge [data-fake-turnstile]");
    await widget.waitFor();
    await shot("turnstile-visible-widget");
    await widget.getByRole("button", { name: "Verify you are human" }).click();
    await page.waitForURL((url) => !url.pathname.endsWith("/handler/sign-up"), { timeout: 15_000 });
    assert.equal(await page.getByText(FAILED).count(), 0);
  });

  runner.step("turnstile: a failing siteverify (2x secret) shows the plain error on the page", async () => {
    await protect("2x0000000000000000000000000000000AA");
    await page.goto(`${origin}/p/${project.projectId}/handler/sign-out`);
    await fillSignUp(`turnstile-refused-${Date.now().toString(36)}@example.com`);
    const widget = page.locator(".stack-bot-challenge [data-fake-turnstile]");
    await widget.waitFor();
    await widget.getByRole("button", { name: "Verify you are human" }).click();
    await page.getByText(FAILED).waitFor();
    await shot("turnstile-refused");
    assert.equal(new URL(page.url()).pathname, `/p/${project.projectId}/handler/sign-up`);
  });
}
