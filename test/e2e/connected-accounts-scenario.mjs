/**
 * Connected accounts in account settings, after the OAuth steps signed a user up with GitHub
 * (the bundled OpenID provider): the linked account is listed, sign-in with it can be turned off
 * and on (kept across a reload), it can be removed, and signing in with GitHub again links it back.
 */
import { join } from "node:path";
import { assert } from "./harness.mjs";

export function defineConnectedAccountSteps(runner, { page, origin, shots }) {
  const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const section = () => page.getByRole("region", { name: "Connected accounts" });
  const signInBox = () => section().getByLabel("Use GitHub to sign in");
  const status = (text) => section().getByRole("status").filter({ hasText: text }).waitFor();

  runner.step("connected accounts: the GitHub account is listed; sign-in with it turns off and on", async () => {
    await page.goto(`${origin}/handler/account-settings`);
    await section().getByText("GitHub", { exact: true }).waitFor();
    await section().getByText("Connected", { exact: true }).waitFor();
    assert.equal(await signInBox().isChecked(), true);
    await signInBox().uncheck();
    await status("Sign-in with GitHub turned off.");
    await page.reload();
    await section().getByText("GitHub", { exact: true }).waitFor();
    assert.equal(await signInBox().isChecked(), false);
    await shot("connected-01-sign-in-off");
    await signInBox().check();
    await status("Sign-in with GitHub turned on.");
  });

  runner.step("connected accounts: remove GitHub, then signing in with GitHub links it back", async () => {
    await section()
      .getByRole("button", { name: /^Remove GitHub/ })
      .click();
    await status("GitHub removed.");
    await section().getByText("No accounts are connected.").waitFor();
    await shot("connected-02-removed");
    const email = await page.getByLabel("Email", { exact: true }).inputValue();

    await page.goto(`${origin}/handler/sign-out`);
    await page.waitForURL((url) => url.pathname === "/handler/sign-in" || url.pathname === "/");
    await page.goto(`${origin}/handler/sign-in`);
    await page.getByRole("button", { name: "Continue with GitHub" }).click();
    // Back from the provider (its login form only if it forgot this browser), into the same account.
    const landed = (url) =>
      url.origin === origin && url.pathname !== "/handler/oauth-callback" && !url.pathname.startsWith("/handler/sign-in");
    await page.waitForURL((url) => url.pathname.startsWith("/interaction/") || landed(url));
    if (new URL(page.url()).pathname.startsWith("/interaction/")) {
      await page.getByLabel("Email", { exact: true }).fill(email);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(landed);
    }
    await page.goto(`${origin}/handler/account-settings`);
    assert.equal(await page.getByLabel("Email", { exact: true }).inputValue(), email);
    await section().getByText("GitHub", { exact: true }).waitFor();
    await shot("connected-03-linked-again");
  });
}
