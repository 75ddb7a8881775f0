/**
 * OAuth sign-in in the browser against the bundled OpenID provider (the internal project's
 * shared GitHub provider points at it via OAUTH_MOCK_ISSUER): a provider button signs a new
 * user up, a second sign-in returns to the same user and to the page that asked for it, and
 * the callback page leaves no code or state in the address.
 */
import { join } from "node:path";
import { assert } from "./harness.mjs";

export function defineOAuthSteps(runner, { page, origin, shots }) {
  const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const input = (label) => page.getByLabel(label, { exact: true });
  const oauthEmail = `oauth-${Date.now().toString(36)}@example.com`;
  const signOut = async () => {
    await page.goto(`${origin}/handler/sign-out`);
    await page.waitForURL((url) => url.pathname === "/handler/sign-in" || url.pathname === "/");
  };
  const noCodeOrState = () => {
    const url = new URL(page.url());
    assert.ok(!url.searchParams.has("code") && !url.searchParams.has("state"), `code/state left in ${page.url()}`);
  };
  /** At the dev provider: the login form the first time, no page at all once it has a session. */
  const passProvider = async (landing) => {
    await page.waitForURL((url) => url.pathname.startsWith("/interaction/") || landing(url));
    if (!new URL(page.url()).pathname.startsWith("/interaction/")) return;
    await page.getByRole("heading", { name: "Dev sign-in" }).waitFor();
    await shot("oauth-01-provider-login");
    await input("Email").fill(oauthEmail);
    await page.getByRole("button", { name: "Sign in" }).click();
  };

  runner.step("oauth: a provider button signs a new user up; the address keeps no code or state", async () => {
    await signOut();
    await page.goto(`${origin}/handler/sign-in`);
    const button = page.getByRole("button", { name: "Continue with GitHub" });
    await button.waitFor();
    await shot("oauth-00-sign-in-buttons");
    await button.click();
    const settings = (url) => url.origin === origin && url.pathname === "/handler/account-settings";
    await passProvider(settings);
    // A new user goes to after-sign-up (account settings), through the oauth-callback page.
    await page.waitForURL(settings);
    noCodeOrState();
    await page.getByRole("heading", { name: "Account settings" }).waitFor();
    assert.equal(await input("Email").inputValue(), oauthEmail);
    await page.getByRole("region", { name: "Emails" }).getByText("Verified", { exact: true }).waitFor();
    await shot("oauth-02-signed-up");
  });

  runner.step("oauth: signing in again returns the same user to the page that asked for it", async () => {
    await signOut();
    await page.goto(`${origin}/projects`);
    await page.waitForURL((url) => url.pathname === "/handler/sign-in");
    await page.getByRole("button", { name: "Continue with GitHub" }).click();
    const projects = (url) => url.origin === origin && url.pathname === "/projects";
    await passProvider(projects);
    await page.waitForURL(projects);
    noCodeOrState();
    await page.goto(`${origin}/handler/account-settings`);
    assert.equal(await input("Email").inputValue(), oauthEmail);
  });

  runner.step("oauth: the callback page without code and state does nothing", async () => {
    await page.goto(`${origin}/handler/oauth-callback`);
    await page.getByRole("heading", { name: "Nothing to do here" }).waitFor();
  });
}
