/**
 * The dev inbox in the browser e2e (issue 28): with no SMTP relay, a project on the shared sender
 * gets an end user's sign-up verification email; its owner reads the link in Emails → Dev inbox and
 * the code in it verifies the address. A brand-new console owner reads the console's own sign-up
 * verification email at /dev-inbox (linked from /projects) and verifies with it. The inbox pages
 * pass axe at 1,100 and 375 px.
 */
import { join } from "node:path";
import { checkPage } from "./a11y-scenario.mjs";
import { adminApi, signUpOwnerWithProject } from "./console-owner.mjs";
import { assert } from "./harness.mjs";
import { routeInternalMailTo } from "./mail.mjs";

const DEV_ADMIN = {
  "content-type": "application/json",
  "x-stack-project-id": "internal",
  "x-stack-access-type": "admin",
  "x-stack-super-secret-admin-key": "this-super-secret-admin-key-is-for-local-development-only",
};

export function defineDevInboxSteps(runner, { page, origin, shots, mail }) {
  const stamp = Date.now().toString(36);
  const projectName = `Inbox Shop ${stamp}`;
  const endUser = `inbox-user-${stamp}@example.com`;
  const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });

  runner.step("dev inbox: an end user's sign-up verification email is in Emails → Dev inbox, and its link verifies", async () => {
    const created = await signUpOwnerWithProject(page, origin, {
      email: `inbox-owner-${stamp}@example.com`,
      password: "inbox-owner-pass-1",
      projectName,
    });
    const admin = adminApi(origin, created);
    const keys = await admin("/internal/api-keys", {
      method: "POST",
      body: {
        description: "e2e",
        expires_at_millis: Date.now() + 3600_000,
        has_publishable_client_key: true,
        has_secret_server_key: false,
        has_super_secret_admin_key: false,
      },
    });
    assert.equal(keys.status, 200, JSON.stringify(keys.body));
    const client = {
      "content-type": "application/json",
      "x-stack-project-id": created.projectId,
      "x-stack-access-type": "client",
      "x-stack-publishable-client-key": keys.body.publishable_client_key,
    };
    // The end user signs up in the project's app (shared email server, no relay: the dev outbox).
    const signUp = await fetch(`${origin}/api/v1/auth/password/sign-up`, {
      method: "POST",
      headers: client,
      body: JSON.stringify({
        email: endUser,
        password: "inbox-user-pass-1",
        verification_callback_url: `${origin}/handler/email-verification`,
      }),
    });
    assert.equal(signUp.status, 200, await signUp.clone().text());
    const userId = (await signUp.json()).user_id;

    // The Emails page points at the dev inbox.
    await page.goto(`${origin}/projects/${created.projectId}/emails`);
    await page.getByRole("heading", { name: "Development: read the emails in the dev inbox" }).waitFor();
    await page.getByRole("link", { name: "Open the dev inbox" }).click();
    await page.waitForURL((url) => url.pathname === `/projects/${created.projectId}/emails/inbox`);
    await page.getByRole("heading", { name: `Dev inbox · ${projectName}` }).waitFor();
    const message = page.getByRole("article", { name: `Verify your email at ${projectName}` });
    for (let i = 0; i < 30 && !(await message.isVisible()); i++) {
      await page.getByRole("button", { name: "Refresh" }).click();
      await page.waitForTimeout(500);
    }
    await message.waitFor();
    await message.getByText(`To ${endUser}`).waitFor();
    const href = await message.getByRole("list", { name: "Links in this email" }).getByRole("link").getAttribute("href");
    const code = new URL(href).searchParams.get("code");
    assert.ok(code && code.length > 10, href);
    await message.getByText("Show the email").click();
    await message.locator("pre.dev-inbox-text").filter({ hasText: code }).waitFor();
    await shot("dev-inbox-project");
    assert.deepEqual(await checkPage(page, "/projects/{id}/emails/inbox"), []);
    // The code from the inbox verifies the address (the log keeps it redacted).
    const verify = await fetch(`${origin}/api/v1/contact-channels/verify`, {
      method: "POST",
      headers: client,
      body: JSON.stringify({ code }),
    });
    assert.equal(verify.status, 200, await verify.clone().text());
    const user = await admin(`/users/${userId}`);
    assert.equal(user.body.primary_email_verified, true);
    const log = await admin("/internal/emails");
    assert.ok(!JSON.stringify(log.body).includes(code), "the email log keeps the code redacted");
  });

  runner.step("dev inbox: a brand-new console owner reads their own verification email at /dev-inbox and verifies", async () => {
    // The e2e routes the console's own mail to the SMTP sink; a fresh local install has no relay.
    const shared = await fetch(`${origin}/api/v1/internal/projects/current`, {
      method: "PATCH",
      headers: DEV_ADMIN,
      body: JSON.stringify({ config: { email_config: { type: "shared" } } }),
    });
    assert.equal(shared.status, 200, await shared.clone().text());
    try {
      const owner = `inbox-new-owner-${stamp}@example.com`;
      const input = (label) => page.getByLabel(label, { exact: true });
      await page.goto(`${origin}/handler/sign-out`);
      await page.waitForURL((url) => url.pathname === "/handler/sign-in" || url.pathname === "/");
      await page.goto(`${origin}/handler/sign-up`);
      await input("Email").fill(owner);
      await input("Password").fill("inbox-new-owner-1");
      await input("Repeat password").fill("inbox-new-owner-1");
      await page.getByRole("button", { name: "Sign up", exact: true }).click();
      await page.waitForURL((url) => url.pathname === "/handler/account-settings");
      await page.goto(`${origin}/projects`);
      await page.getByRole("heading", { name: "Verify your email address" }).waitFor();
      await page.getByRole("link", { name: "Open your dev inbox" }).click();
      await page.waitForURL((url) => url.pathname === "/dev-inbox");
      await page.getByRole("heading", { name: "Your dev inbox" }).waitFor();
      const message = page.getByRole("article", { name: "Verify your email at Doorman" });
      for (let i = 0; i < 30 && !(await message.isVisible()); i++) {
        await page.getByRole("button", { name: "Refresh" }).click();
        await page.waitForTimeout(500);
      }
      await message.waitFor();
      await message.getByText(`To ${owner}`).waitFor();
      await shot("dev-inbox-own");
      assert.deepEqual(await checkPage(page, "/dev-inbox"), []);
      const href = await message.getByRole("list", { name: "Links in this email" }).getByRole("link").getAttribute("href");
      await page.goto(href);
      await page.getByRole("button", { name: "Verify my email" }).and(page.locator(":enabled")).click();
      await page.getByRole("heading", { name: "Email verified" }).waitFor();
      await page.goto(`${origin}/projects`);
      await page.getByRole("heading", { name: "Your projects" }).waitFor();
      assert.equal(await page.getByRole("heading", { name: "Verify your email address" }).count(), 0);
    } finally {
      if (mail) await routeInternalMailTo(origin, mail.port);
    }
  });
}
