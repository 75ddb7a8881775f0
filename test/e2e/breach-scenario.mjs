/**
 * Breached passwords in the browser (issue 29): the stack's worker checks new passwords against the
 * local range API (test/pwned-range-fixture.mjs, started by test/e2e/stack.mjs as PWNED_PASSWORDS_URL).
 * The hosted sign-up page puts PASSWORD_BREACHED on the password field (aria-invalid, described by the
 * message), in English and in German, creates no account, and a good password then signs up; account
 * settings' password section puts it under the new password; a project's own hosted sign-up page
 * (/p/{projectId}/handler, the same HandlerPage) shows it too.
 */
import { join } from "node:path";
import { PWNED_FIXTURE } from "../pwned-range-fixture.mjs";
import { signUpOwnerWithProject } from "./console-owner.mjs";
import { assert } from "./harness.mjs";

/** Used only here (the vitest suite uses BREACHED[0]), so it is listed in the fixture's range and nowhere else. */
const BREACHED = PWNED_FIXTURE.BREACHED[1];
const ENGLISH = "This password has appeared in a data breach; choose another.";
const GERMAN = "Dieses Passwort ist bei einem Datenleck aufgetaucht; wähle ein anderes.";
const GOOD = "quiet lantern orbit 42";

export function defineBreachSteps(runner, { page, origin, shots }) {
  const input = (label) => page.getByLabel(label, { exact: true });
  const email = `breach-${Date.now().toString(36)}@example.com`;

  /** Fills the sign-up form and submits it; answers the password field's error text. */
  const submit = async (labels, password) => {
    await input(labels.email).fill(email);
    await input(labels.password).fill(password);
    await input(labels.repeat).fill(password);
    await page.getByRole("button", { name: labels.button, exact: true }).click();
  };
  const errorOf = async (label) => {
    const field = input(label);
    const describedBy = (await field.getAttribute("aria-describedby")) ?? "";
    const texts = await Promise.all(
      describedBy
        .split(/\s+/)
        .filter(Boolean)
        .map((id) => page.locator(`[id="${id}"]`).innerText()),
    );
    return { invalid: await field.getAttribute("aria-invalid"), described: texts.join(" ") };
  };

  runner.step("breach: the sign-up page shows a breached password's error on the password field", async () => {
    await page.goto(`${origin}/handler/sign-out`);
    await page.waitForURL((url) => url.pathname === "/handler/sign-in" || url.pathname === "/");
    await page.goto(`${origin}/handler/sign-up`);
    await page.getByRole("heading", { name: "Create your account" }).waitFor();
    const labels = { email: "Email", password: "Password", repeat: "Repeat password", button: "Sign up" };
    await submit(labels, BREACHED);
    await page.getByText(ENGLISH).waitFor();
    const error = await errorOf("Password");
    assert.equal(error.invalid, "true");
    assert.ok(error.described.includes(ENGLISH), `the password field is described by the message, got ${JSON.stringify(error.described)}`);
    assert.equal(await input("Email").getAttribute("aria-invalid"), null);
    assert.equal(new URL(page.url()).pathname, "/handler/sign-up");
    await page.screenshot({ path: join(shots, "breach-sign-up.png"), fullPage: true });
  });

  runner.step("breach: in German the message is German; a good password then signs the same address up", async () => {
    await page.setExtraHTTPHeaders({ "Accept-Language": "de-DE,de;q=0.9" });
    try {
      await page.goto(`${origin}/handler/sign-up`);
      await page.getByRole("heading", { name: "Konto erstellen" }).waitFor();
      const labels = { email: "E-Mail", password: "Passwort", repeat: "Passwort wiederholen", button: "Registrieren" };
      await submit(labels, BREACHED);
      await page.getByText(GERMAN).waitFor();
      assert.equal((await errorOf("Passwort")).invalid, "true");
      // Refused, the address is still free.
      await submit(labels, GOOD);
      await page.waitForURL((url) => url.pathname === "/handler/account-settings");
    } finally {
      await page.setExtraHTTPHeaders({});
    }
  });

  runner.step("breach: account settings' password section shows it under the new password", async () => {
    await page.goto(`${origin}/handler/account-settings`);
    await page.getByRole("heading", { name: "Account settings" }).waitFor();
    await input("Current password").fill(GOOD);
    await input("New password").fill(BREACHED);
    await input("Repeat new password").fill(BREACHED);
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByText(ENGLISH).waitFor();
    const error = await errorOf("New password");
    assert.equal(error.invalid, "true");
    assert.ok(
      error.described.includes(ENGLISH),
      `the new-password field is described by the message, got ${JSON.stringify(error.described)}`,
    );
    assert.equal(await input("Current password").getAttribute("aria-invalid"), null);
  });

  runner.step("breach: a project's own hosted sign-up page shows it on the password field too", async () => {
    const project = await signUpOwnerWithProject(page, origin, {
      email: `breach-owner-${Date.now().toString(36)}@example.com`,
      password: GOOD,
      projectName: "Breach Check Shop",
    });
    await page.goto(`${origin}/handler/sign-out`);
    await page.waitForURL((url) => url.pathname === "/handler/sign-in" || url.pathname === "/");
    await page.goto(`${origin}/p/${project.projectId}/handler/sign-up`);
    await page.getByRole("heading", { name: "Create your account" }).waitFor();
    await submit({ email: "Email", password: "Password", repeat: "Repeat password", button: "Sign up" }, BREACHED);
    await page.getByText(ENGLISH).waitFor();
    assert.equal((await errorOf("Password")).invalid, "true");
    assert.equal(new URL(page.url()).pathname, `/p/${project.projectId}/handler/sign-up`);
    await page.screenshot({ path: join(shots, "breach-hosted-project-sign-up.png"), fullPage: true });
  });
}
