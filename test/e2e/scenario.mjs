/**
 * The browser scenario, step by step: sign-up (with client-side field errors first),
 * profile edit persisted across reload, sign-out, wrong-password and duplicate-email
 * errors, sign-in, the signed-out redirect with after_auth_return_to, and the dashboard
 * creating a project whose keys are shown once.
 */
import { join } from "node:path";
import { defineA11ySteps } from "./a11y-scenario.mjs";
import { defineActivitySteps } from "./activity-scenario.mjs";
import { defineApiDocsSteps } from "./api-docs-scenario.mjs";
import { defineApiKeySteps, defineTeamApiKeySteps } from "./api-keys-scenario.mjs";
import { defineAssistantSteps } from "./assistant-scenario.mjs";
import { defineBreachSteps } from "./breach-scenario.mjs";
import { defineCliSteps } from "./cli-scenario.mjs";
import { defineConnectSteps } from "./connect-scenario.mjs";
import { defineConnectedAccountSteps } from "./connected-accounts-scenario.mjs";
import { defineConsoleConfigSteps } from "./console-config-scenario.mjs";
import { defineConsoleEmailEditorSteps } from "./console-email-editor-scenario.mjs";
import { defineConsoleEmailSteps } from "./console-emails-scenario.mjs";
import { defineConsoleEventSteps } from "./console-events-scenario.mjs";
import { defineConsoleMetricsSteps } from "./console-metrics-scenario.mjs";
import { defineConsoleOutboxSteps } from "./console-outbox-scenario.mjs";
import { defineConsolePolishSteps } from "./console-polish-scenario.mjs";
import { defineConsoleTeamSteps } from "./console-teams-scenario.mjs";
import { defineConsoleUserSteps } from "./console-users-scenario.mjs";
import { defineConsoleWebhookSteps } from "./console-webhooks-scenario.mjs";
import { defineDevInboxSteps } from "./dev-inbox-scenario.mjs";
import { defineDeviceSteps } from "./device-scenario.mjs";
import { defineEmailSteps, defineMfaSteps } from "./email-scenario.mjs";
import { defineHandlerLinkSteps } from "./handler-links-scenario.mjs";
import { assert, createRunner } from "./harness.mjs";
import { defineHeaderSteps } from "./headers-scenario.mjs";
import { defineHostedPagesSteps } from "./hosted-pages-scenario.mjs";
import { defineI18nSteps } from "./i18n-scenario.mjs";
import { defineMcpSteps } from "./mcp-scenario.mjs";
import { defineOAuthAppsSteps } from "./oauth-apps-scenario.mjs";
import { defineOAuthConsentSteps } from "./oauth-consent-scenario.mjs";
import { defineOAuthSteps } from "./oauth-scenario.mjs";
import { defineOpenIdClientSteps } from "./openid-client-scenario.mjs";
import { definePasskeySteps } from "./passkey-scenario.mjs";
import { definePaymentsSteps } from "./payments-scenario.mjs";
import { definePermissionSteps } from "./permissions-scenario.mjs";
import { defineRequiredMfaSteps } from "./required-mfa-scenario.mjs";
import { defineRulesSteps } from "./rules-scenario.mjs";
import { defineSessionSteps } from "./sessions-scenario.mjs";
import { defineSsoConsoleSteps } from "./sso-console-scenario.mjs";
import { defineSsoOidcSteps } from "./sso-oidc-scenario.mjs";
import { defineSsoSamlSteps } from "./sso-saml-scenario.mjs";
import { defineTeamSteps } from "./team-scenario.mjs";
import { defineTurnstileSteps } from "./turnstile-scenario.mjs";

export function defineScenario({ page, context, origin, shots, mail }) {
  const runner = createRunner();
  const email = `owner-${Date.now().toString(36)}@example.com`;
  const password = "correct-horse-battery";
  const newPassword = "staple-battery-horse-2";
  const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const path = () => new URL(page.url()).pathname;
  const input = (label) => page.getByLabel(label, { exact: true });

  runner.step("sign-up page shows per-field errors with aria-invalid", async () => {
    await page.goto(`${origin}/handler/sign-up`);
    await page.getByRole("heading", { name: "Create your account" }).waitFor();
    await input("Email").fill("not-an-email");
    await input("Password").fill("short");
    await input("Repeat password").fill("different");
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    assert.equal(await input("Email").getAttribute("aria-invalid"), "true");
    assert.equal(await input("Password").getAttribute("aria-invalid"), "true");
    assert.equal(await input("Repeat password").getAttribute("aria-invalid"), "true");
    await page.getByText("Password must be at least 8 characters.").waitFor();
    await shot("01-sign-up-errors");
  });

  runner.step("sign up with email and password lands on account settings", async () => {
    await input("Email").fill(email);
    await input("Password").fill(password);
    await input("Repeat password").fill(password);
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/handler/account-settings");
    await page.getByRole("heading", { name: "Account settings" }).waitFor();
    assert.equal(await input("Email").inputValue(), email);
  });

  runner.step("account settings: change the display name, still there after reload", async () => {
    await input("Display name").fill("Ada Lovelace");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    await page.reload();
    await page.getByRole("heading", { name: "Account settings" }).waitFor();
    assert.equal(await input("Display name").inputValue(), "Ada Lovelace");
    assert.equal(await input("Email").inputValue(), email);
    await shot("02-account-settings");
  });

  runner.step("account settings: change the password (a wrong current one is marked)", async () => {
    await input("Current password").fill("not-my-password-1");
    await input("New password").fill(newPassword);
    await input("Repeat new password").fill(newPassword);
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByText("That is not your current password.").waitFor();
    assert.equal(await input("Current password").getAttribute("aria-invalid"), "true");
    await input("Current password").fill(password);
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByRole("status").filter({ hasText: "Password changed." }).waitFor();
    await shot("02b-password-changed");
  });

  runner.step("sign out, then protected pages redirect to sign-in with after_auth_return_to", async () => {
    await page.getByRole("link", { name: "Sign out" }).click();
    // Signed out, the console returns home: the landing page that says what Doorman is.
    await page.waitForURL((url) => url.pathname === "/");
    await page.getByRole("link", { name: "Sign in", exact: true }).first().waitFor();
    await page.goto(`${origin}/projects`);
    await page.waitForURL((url) => url.pathname === "/handler/sign-in");
    const returnTo = new URL(page.url()).searchParams.get("after_auth_return_to");
    assert.ok(returnTo?.includes("/projects"), `after_auth_return_to should point at /projects, got ${returnTo}`);
    await page.getByRole("heading", { name: "Sign in to your account" }).waitFor();
  });

  runner.step("wrong password shows the known error", async () => {
    await input("Email").fill(email);
    await input("Password").fill("wrong-password-123");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "Wrong e-mail or password." }).waitFor();
    assert.equal(path(), "/handler/sign-in");
    await shot("03-sign-in-wrong-password");
  });

  runner.step("sign-up with an existing email marks the email field", async () => {
    await page.getByRole("link", { name: "Sign up", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/handler/sign-up");
    assert.ok(new URL(page.url()).searchParams.get("after_auth_return_to"), "the link keeps after_auth_return_to");
    await input("Email").fill(email);
    await input("Password").fill(password);
    await input("Repeat password").fill(password);
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await page.getByText("already exists").waitFor();
    assert.equal(await input("Email").getAttribute("aria-invalid"), "true");
  });

  runner.step("sign in again (with the new password) returns to the page that asked for it", async () => {
    await page.getByRole("link", { name: "Sign in", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/handler/sign-in");
    await input("Email").fill(email);
    await input("Password").fill(newPassword);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/projects");
    await page.getByText("Ada Lovelace").first().waitFor();
  });

  runner.step("dashboard: empty project name is a field error", async () => {
    await page.getByRole("heading", { name: "Create a project" }).waitFor();
    await page.getByRole("button", { name: "Create project" }).click();
    assert.equal(await input("Project name").getAttribute("aria-invalid"), "true");
  });

  runner.step("dashboard: create a project and read its keys once", async () => {
    await input("Project name").fill("E2E Shop");
    await page.getByRole("button", { name: "Create project" }).click();
    await page.getByText("You won't see the secret values again").waitFor();
    const value = (id) => page.getByTestId(id).textContent();
    assert.match(await value("publishable-client-key"), /^pck_/);
    assert.match(await value("secret-server-key"), /^ssk_/);
    assert.match(await value("super-secret-admin-key"), /^sak_/);
    await page.getByRole("list", { name: "Your projects" }).getByText("E2E Shop").waitFor();
    await shot("04-project-keys");
    await page.getByRole("button", { name: "I have saved my keys" }).click();
    await page.getByTestId("secret-server-key").waitFor({ state: "detached" });
  });

  runner.step("dashboard: a project's email log opens from the list", async () => {
    await page.getByRole("list", { name: "Your projects" }).getByRole("link", { name: "Emails" }).first().click();
    await page.getByRole("heading", { name: "Emails · E2E Shop" }).waitFor();
    await page.getByText("No emails yet.").waitFor();
    await page.goto(`${origin}/projects`);
  });

  runner.step("unknown handler page shows not-found; error page shows its message", async () => {
    await page.goto(`${origin}/handler/no-such-page`);
    await page.getByRole("heading", { name: "Page not found" }).waitFor();
    await page.goto(`${origin}/handler/error?errorCode=SOME_CODE&message=${encodeURIComponent("<b>Boom</b> happened")}`);
    await page.getByRole("alert").filter({ hasText: "<b>Boom</b> happened" }).waitFor();
    await page.getByText("SOME_CODE").waitFor();
  });

  // The account's current password (the email steps reset it).
  let currentPassword = newPassword;
  const account = { email, password: () => currentPassword, setPassword: (p) => (currentPassword = p) };
  if (mail) defineEmailSteps(runner, { page, origin, shots, mail, account });
  if (mail) defineHandlerLinkSteps(runner, { page, origin, shots, mail, account });
  defineMfaSteps(runner, { page, origin, shots, account });
  defineOAuthSteps(runner, { page, origin, shots });
  defineConnectedAccountSteps(runner, { page, origin, shots });
  definePasskeySteps(runner, { page, context, origin, shots });
  defineCliSteps(runner, { page, context, origin, shots });
  if (mail) account.team = defineTeamSteps(runner, { page, origin, shots, mail });
  definePermissionSteps(runner, { page, origin, shots });
  if (mail) defineConsoleEmailSteps(runner, { page, origin, mail });
  if (mail) defineConsoleEmailEditorSteps(runner, { page, origin, mail });
  if (mail) defineConsoleOutboxSteps(runner, { page, origin, mail, shots });
  defineDevInboxSteps(runner, { page, origin, shots, mail });
  defineConsoleEventSteps(runner, { page, origin });
  defineConsoleMetricsSteps(runner, { page, origin });
  defineActivitySteps(runner, { page, origin, shots });
  defineConsoleWebhookSteps(runner, { page, origin });
  defineOAuthAppsSteps(runner, { page, origin, shots });
  defineSsoConsoleSteps(runner, { page, origin, shots });
  if (mail) defineConsoleTeamSteps(runner, { page, origin, shots, mail });
  defineConsoleUserSteps(runner, { page, origin, shots });
  defineConsolePolishSteps(runner, { page, origin, shots });
  defineConsoleConfigSteps(runner, { page, origin, shots });
  defineRulesSteps(runner, { page, origin });
  defineSessionSteps(runner, { page, context, origin, shots });
  defineAssistantSteps(runner, { page, context, origin });
  definePaymentsSteps(runner, { page, origin, shots });
  defineConnectSteps(runner, { page, context, origin, shots });
  defineRequiredMfaSteps(runner, { page, origin, shots });
  defineApiKeySteps(runner, { page, context, origin, shots });
  defineTeamApiKeySteps(runner, { page, origin, shots });
  defineApiDocsSteps(runner, { page, origin, shots });
  defineHeaderSteps(runner, { page, origin });
  if (mail) defineHostedPagesSteps(runner, { page, origin, mail, shots });
  defineOAuthConsentSteps(runner, { page, origin, shots });
  if (mail) defineDeviceSteps(runner, { page, origin, mail, shots });
  defineA11ySteps(runner, { page, origin });
  defineI18nSteps(runner, { page, origin, shots });
  defineBreachSteps(runner, { page, origin, shots });
  defineTurnstileSteps(runner, { page, origin, shots });
  defineOpenIdClientSteps(runner, { page, origin, shots });
  defineMcpSteps(runner, { page, origin, shots });
  defineSsoOidcSteps(runner, { page, origin, shots });
  defineSsoSamlSteps(runner, { page, origin, shots });

  void context;
  return runner;
}
