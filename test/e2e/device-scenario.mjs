/**
 * New-device verification in Chromium (issue 29), on a project's hosted pages: a new owner's project
 * keeps the check on (as new projects start) and mails to the SMTP sink; an end user signs up in one
 * browser context; in a fresh context (a new device: no device cookie) the password sign-in shows the
 * "Check your email" code step, a wrong code is a field error, the code from the real email signs in;
 * signing out and in again in that context asks nothing (the device cookie is known now).
 */
import { adminApi, signUpOwnerWithProject } from "./console-owner.mjs";
import { assert } from "./harness.mjs";

export function defineDeviceSteps(runner, { page, origin, mail, shots }) {
  const stamp = Date.now().toString(36);
  const owner = { email: `device-owner-${stamp}@example.com`, password: "device-owner-password" };
  const user = { email: `device-user-${stamp}@example.com`, password: "device-user-password" };
  const input = (p, label) => p.getByLabel(label, { exact: true });
  const state = { projectId: "", fresh: null };
  const base = () => `${origin}/p/${state.projectId}/handler`;

  async function signIn(p) {
    await p.goto(`${base()}/sign-in`);
    await input(p, "Email").fill(user.email);
    await input(p, "Password").fill(user.password);
    await p.getByRole("button", { name: "Sign in", exact: true }).click();
  }

  runner.step("device: a new owner's project keeps new-device verification on and mails to the sink", async () => {
    const created = await signUpOwnerWithProject(page, origin, { ...owner, projectName: "Device Shop" });
    state.projectId = created.projectId;
    const api = adminApi(origin, created);
    // The console-owner helper turns the check off for the other scenarios: back on, as a new project has it.
    const on = await api("/internal/config/override/environment", {
      method: "PATCH",
      body: { config_override_string: JSON.stringify({ "doorman.protection.newDeviceVerification.enabled": true }) },
    });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    const emailConfig = {
      type: "standard",
      host: "127.0.0.1",
      port: mail.port,
      username: "sink",
      password: "unused",
      sender_name: "Device Shop",
      sender_email: "shop@doorman.localhost",
    };
    const saved = await api("/internal/projects/current", { method: "PATCH", body: { config: { email_config: emailConfig } } });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
  });

  runner.step("device: an end user signs up on the hosted page in one browser context", async () => {
    const context = await page.context().browser().newContext();
    const p = await context.newPage();
    await p.goto(`${base()}/sign-up`);
    await input(p, "Email").fill(user.email);
    await input(p, "Password").fill(user.password);
    await input(p, "Repeat password").fill(user.password);
    await p.getByRole("button", { name: "Sign up", exact: true }).click();
    await p.waitForURL((url) => !url.pathname.endsWith("/handler/sign-up"));
    await context.close();
  });

  runner.step("device: in a fresh context the sign-in asks for the emailed code; a wrong code is a field error", async () => {
    const context = await page.context().browser().newContext();
    state.fresh = await context.newPage();
    const p = state.fresh;
    await signIn(p);
    await p.getByRole("heading", { name: "Check your email" }).waitFor();
    await p.getByText(/New device: enter the code we sent to d•••@example\.com/).waitFor();
    const code = input(p, "Code");
    await code.fill("ZZZZZZ");
    await p.getByRole("button", { name: "Sign in", exact: true }).click();
    await p.getByText("That code is not right").waitFor();
    assert.equal(await code.getAttribute("aria-invalid"), "true");
    await p.screenshot({ path: `${shots}/device-01-code-step.png` });
  });

  runner.step("device: the code from the real email signs in and makes the device known", async () => {
    const p = state.fresh;
    const sent = await mail.waitFor(user.email, /sign-in code: [0-9A-Z]{6}$/);
    const otp = /([0-9A-Z]{6})$/.exec(sent.subject)[1];
    assert.ok(!sent.text.includes("ZZZZZZ"), "the mail carries the real code");
    await input(p, "Code").fill(otp);
    await p.getByRole("button", { name: "Sign in", exact: true }).click();
    await p.waitForURL((url) => url.pathname === `/p/${state.projectId}/handler/account-settings`);
    const cookies = await p.context().cookies();
    assert.ok(
      cookies.some((c) => c.name === `stack-device-${state.projectId}`),
      "the browser keeps the device cookie",
    );
  });

  runner.step("device: signing out and in again in the same context asks nothing", async () => {
    const p = state.fresh;
    await p.goto(`${base()}/sign-out`);
    await p.waitForURL((url) => !url.pathname.endsWith("/handler/sign-out"));
    const mailsBefore = mail.count(user.email, /sign-in code/);
    await signIn(p);
    await p.waitForURL((url) => url.pathname === `/p/${state.projectId}/handler/account-settings`);
    assert.equal(mail.count(user.email, /sign-in code/), mailsBefore, "no new code was mailed");
    await p.context().close();
  });
}
