/**
 * Sessions that end when the user says so, in the browser: one user signed in on two devices
 * (two cookie jars of the browser, swapped in turn), "Sign out of all other devices" on one, and
 * the other is signed out on its next page load (its access token is refused at once, not after
 * its 10 minutes). Then an owner sets the project's session policy on the Settings page (an
 * invalid number is a field error; the saved values reach the admin API and survive a reload).
 */
import { join } from "node:path";
import { adminApi, signUpOwnerWithProject } from "./console-owner.mjs";
import { assert } from "./harness.mjs";

export function defineSessionSteps(runner, { page, context, origin, shots }) {
  const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const input = (label) => page.getByLabel(label, { exact: true });
  const stamp = Date.now().toString(36);
  const user = { email: `devices-${stamp}@example.com`, password: "two-devices-pass-1" };
  const owner = { email: `policy-owner-${stamp}@example.com`, password: "policy-owner-pass-1" };
  const projectName = `Policy Shop ${stamp}`;
  let saved = [];
  const devices = { a: [], b: [] };
  const switchToDevice = async (jar) => {
    await context.clearCookies();
    await context.addCookies(jar);
  };
  const accountSettings = async () => {
    await page.goto(`${origin}/handler/account-settings`);
    await page.getByRole("heading", { name: "Account settings" }).waitFor();
  };

  runner.step("sessions: one user signs in on two devices; both open account settings", async () => {
    saved = await context.cookies();
    await context.clearCookies();
    await page.goto(`${origin}/handler/sign-up`);
    await input("Email").fill(user.email);
    await input("Password").fill(user.password);
    await input("Repeat password").fill(user.password);
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/handler/account-settings");
    devices.a = await context.cookies();

    await context.clearCookies();
    await page.goto(`${origin}/handler/sign-in`);
    await input("Email").fill(user.email);
    await input("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((url) => url.pathname !== "/handler/sign-in");
    await accountSettings();
    devices.b = await context.cookies();

    await switchToDevice(devices.a);
    await accountSettings();
    await page.getByRole("list", { name: "Active sessions" }).getByRole("listitem").nth(1).waitFor();
  });

  runner.step("sessions: 'Sign out of all other devices' signs the other device out on its next page load", async () => {
    try {
      await page.getByRole("button", { name: "Sign out of all other devices" }).click();
      await page.getByRole("status").filter({ hasText: "Signed out of all other devices." }).waitFor();
      await page.getByRole("button", { name: "Sign out of all other devices" }).waitFor({ state: "detached" });
      assert.equal(await page.getByRole("list", { name: "Active sessions" }).getByRole("listitem").count(), 1);
      await shot("sessions-01-signed-out-others");

      // The other device, seconds later: its access token has not expired, yet it is signed out.
      await switchToDevice(devices.b);
      await page.goto(`${origin}/handler/account-settings`);
      await page.waitForURL((url) => url.pathname === "/handler/sign-in");
      await page.goto(`${origin}/projects`);
      await page.waitForURL((url) => url.pathname === "/handler/sign-in");

      // This device stays signed in.
      await switchToDevice(devices.a);
      await accountSettings();
      assert.equal(await input("Email").inputValue(), user.email);
    } finally {
      await context.clearCookies();
      await context.addCookies(saved);
    }
  });

  const state = { projectId: null, adminKey: null };
  runner.step("sessions: an owner sets the session policy on the Settings page", async () => {
    saved = await context.cookies();
    Object.assign(state, await signUpOwnerWithProject(page, origin, { ...owner, projectName }));
    await page.goto(`${origin}/projects/${state.projectId}/settings`);
    await page.getByRole("heading", { name: "Sessions" }).waitFor();
    assert.equal(await input("Idle timeout (minutes)").inputValue(), "0");

    await input("Sessions per user").fill("lots");
    await page.getByRole("button", { name: "Save session policy" }).click();
    assert.equal(await input("Sessions per user").getAttribute("aria-invalid"), "true");

    await input("Idle timeout (minutes)").fill("1440");
    await input("Absolute lifetime (minutes)").fill("43200");
    await input("Sessions per user").fill("3");
    await page.getByRole("button", { name: "Save session policy" }).click();
    await page.locator(".toasts").getByText("Session policy saved.").waitFor();
    assert.equal(await input("Sessions per user").getAttribute("aria-invalid"), null);
    await shot("sessions-02-policy");

    const read = await adminApi(origin, state)("/internal/projects/current");
    assert.equal(read.body.config.session_idle_timeout_minutes, 1440);
    assert.equal(read.body.config.session_max_lifetime_minutes, 43200);
    assert.equal(read.body.config.max_sessions_per_user, 3);
    await page.reload();
    await page.getByRole("heading", { name: "Sessions" }).waitFor();
    assert.equal(await input("Absolute lifetime (minutes)").inputValue(), "43200");
    await context.clearCookies();
    await context.addCookies(saved);
  });
}
