/**
 * The email flows of the browser e2e, reading the real emails from the SMTP sink: verify an
 * email from account settings, sign in by magic link (link and typed code), and reset a password
 * then sign in with the new one.
 */
import { join } from "node:path";
import { assert } from "./harness.mjs";
import { linkIn } from "./mail.mjs";

export function defineEmailSteps(runner, { page, origin, shots, mail, account }) {
  const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const input = (label) => page.getByLabel(label, { exact: true });
  const signOut = async () => {
    await page.goto(`${origin}/handler/sign-out`);
    await page.waitForURL((url) => url.pathname === "/handler/sign-in" || url.pathname === "/");
  };
  const magicEmail = `magic-${Date.now().toString(36)}@example.com`;

  runner.step("email: verify the primary email from account settings with the emailed link", async () => {
    await page.goto(`${origin}/handler/account-settings`);
    const emails = page.getByRole("region", { name: "Emails" });
    await emails.getByText("Unverified").waitFor();
    const before = mail.count(account.email, /^Verify your email/);
    await emails.getByRole("button", { name: "Send verification email" }).click();
    await emails.getByRole("status").filter({ hasText: "Verification email sent" }).waitFor();
    const message = await mail.waitFor(account.email, /^Verify your email at /, { after: before });
    // Opening the link only checks it: the page asks for one click (mail scanners do not verify).
    await page.goto(linkIn(message));
    await page.getByRole("button", { name: "Verify my email" }).and(page.locator(":enabled")).click();
    await page.getByRole("heading", { name: "Email verified" }).waitFor();
    await shot("05-email-verified");
    await page.goto(`${origin}/handler/account-settings`);
    await emails.getByText("Verified", { exact: true }).waitFor();
  });

  runner.step("email: sign up by magic link (the link in the real email)", async () => {
    await signOut();
    await page.goto(`${origin}/handler/sign-in`);
    await page.getByRole("button", { name: "Email me a sign-in code instead" }).click();
    await input("Email").fill(magicEmail);
    await page.getByRole("button", { name: "Email me a sign-in code" }).click();
    await page.getByText(`We sent a code to ${magicEmail}`).waitFor();
    await shot("06-magic-link-sent");
    const message = await mail.waitFor(magicEmail, /^Sign in to Doorman: Your code is [A-Z0-9]{6}$/);
    await page.goto(linkIn(message));
    await page.getByRole("button", { name: "Sign in", exact: true }).and(page.locator(":enabled")).click();
    // A new account lands on its settings, with the address already verified.
    await page.waitForURL((url) => url.pathname === "/handler/account-settings");
    assert.equal(await input("Email").inputValue(), magicEmail);
    await page.getByRole("region", { name: "Emails" }).getByText("Verified", { exact: true }).waitFor();
  });

  runner.step("email: sign in again by typing the 6-character code", async () => {
    await signOut();
    await page.goto(`${origin}/handler/sign-in`);
    await page.getByRole("button", { name: "Email me a sign-in code instead" }).click();
    await input("Email").fill(magicEmail);
    const before = mail.count(magicEmail, /^Sign in to /);
    await page.getByRole("button", { name: "Email me a sign-in code" }).click();
    const message = await mail.waitFor(magicEmail, /^Sign in to /, { after: before });
    const otp = /Your code is ([A-Z0-9]{6})$/.exec(message.subject)[1];
    await input("Code").fill("ZZZZZZ");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByText("That code is not right").waitFor();
    assert.equal(await input("Code").getAttribute("aria-invalid"), "true");
    await input("Code").fill(otp);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/projects");
  });

  runner.step("email: reset a forgotten password with the emailed link, then sign in with it", async () => {
    await signOut();
    await page.goto(`${origin}/handler/sign-in`);
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.waitForURL((url) => url.pathname === "/handler/forgot-password");
    await input("Email").fill(account.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page.getByRole("heading", { name: "Check your email" }).waitFor();
    const message = await mail.waitFor(account.email, /^Reset your password at /);
    await page.goto(linkIn(message));
    await page.getByRole("heading", { name: "Choose a new password" }).waitFor();
    const resetPassword = account.setPassword("reset-by-email-3");
    await input("New password").fill(resetPassword);
    await input("Repeat new password").fill(resetPassword);
    await page.getByRole("button", { name: "Set new password" }).click();
    await page.getByRole("heading", { name: "Password changed" }).waitFor();
    await shot("07-password-reset");
    // The link is single-use.
    await page.goto(linkIn(message));
    await page.getByText("This link was already used.").waitFor();
    await page.goto(`${origin}/handler/sign-in`);
    await input("Email").fill(account.email);
    await input("Password").fill(resetPassword);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/projects");
  });
}

/** TOTP: set it up in account settings (first code checked), then a sign-in needs the code. */
export function defineMfaSteps(runner, { page, origin, shots, account }) {
  const input = (label) => page.getByLabel(label, { exact: true });
  let secret = null;
  let recoveryCodes = [];
  const totp = async () => {
    const { decodeBase32IgnorePadding } = await import("@oslojs/encoding");
    const { generateHOTP } = await import("@oslojs/otp");
    return generateHOTP(decodeBase32IgnorePadding(secret), BigInt(Math.floor(Date.now() / 30_000)), 6);
  };

  runner.step("mfa: turn on TOTP in account settings (a wrong first code is refused)", async () => {
    await page.goto(`${origin}/handler/account-settings`);
    const section = page.getByRole("region", { name: "Two-factor authentication" });
    await section.getByRole("button", { name: "Set up" }).click();
    secret = (await page.getByTestId("totp-secret").textContent()).trim();
    // The QR code (the otpauth:// URI, drawn locally) rendered as a real image.
    const qr = section.getByRole("img", { name: "QR code for your authenticator app" });
    await qr.waitFor();
    assert.ok((await qr.evaluate((img) => img.naturalWidth)) > 0, "the QR code image decoded");
    await input("Code from your app").fill("000000" === (await totp()) ? "111111" : "000000");
    await section.getByRole("button", { name: "Turn on" }).click();
    await section.getByText("That code does not match").waitFor();
    await input("Code from your app").fill(await totp());
    await section.getByRole("button", { name: "Turn on" }).click();
    await section.getByText("On", { exact: true }).waitFor();
    // Issue 25: the ten recovery codes are shown once, right after TOTP is turned on.
    const codes = section.getByTestId("recovery-codes").locator("code");
    await codes.first().waitFor();
    recoveryCodes = (await codes.allTextContents()).map((c) => c.trim());
    assert.equal(recoveryCodes.length, 10, "ten recovery codes");
    await page.screenshot({ path: `${shots}/08-mfa-on.png`, fullPage: true });
  });

  runner.step("mfa: signing in with the password now asks for the code on the mfa page", async () => {
    await page.goto(`${origin}/handler/sign-out`);
    await page.waitForURL((url) => url.pathname === "/handler/sign-in" || url.pathname === "/");
    await page.goto(`${origin}/handler/sign-in?after_auth_return_to=${encodeURIComponent("/projects")}`);
    await input("Email").fill(account.email);
    await input("Password").fill(account.password());
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/handler/mfa");
    await input("Code").fill("12345");
    await page.getByRole("button", { name: "Verify" }).click();
    assert.equal(await input("Code").getAttribute("aria-invalid"), "true");
    await input("Code").fill(await totp());
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL((url) => url.pathname !== "/handler/mfa");
    await page.goto(`${origin}/projects`);
    await page.getByRole("heading", { name: "Projects", exact: true }).waitFor();
  });

  runner.step('mfa: a recovery code signs in once through "Use a recovery code"', async () => {
    const signInToMfa = async () => {
      await page.goto(`${origin}/handler/sign-out`);
      await page.waitForURL((url) => url.pathname === "/handler/sign-in" || url.pathname === "/");
      await page.goto(`${origin}/handler/sign-in?after_auth_return_to=${encodeURIComponent("/projects")}`);
      await input("Email").fill(account.email);
      await input("Password").fill(account.password());
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.waitForURL((url) => url.pathname === "/handler/mfa");
      await page.getByRole("button", { name: "Use a recovery code" }).click();
    };
    await signInToMfa();
    await input("Recovery code").fill(recoveryCodes[0]);
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL((url) => url.pathname !== "/handler/mfa");
    await page.goto(`${origin}/projects`);
    await page.getByRole("heading", { name: "Projects", exact: true }).waitFor();
    // The same code again is refused; another one works.
    await signInToMfa();
    await input("Recovery code").fill(recoveryCodes[0]);
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByText("That recovery code is not right or was used already.").waitFor();
    await input("Recovery code").fill(recoveryCodes[1]);
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL((url) => url.pathname !== "/handler/mfa");
    await page.goto(`${origin}/projects`);
    await page.getByRole("heading", { name: "Projects", exact: true }).waitFor();
  });

  runner.step("sessions: account settings list this device first; another session can be revoked", async () => {
    // A second session of the same user, made through the API (as another device would).
    const res = await fetch(`${origin}/api/v1/auth/sessions`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-stack-project-id": "internal",
        "x-stack-access-type": "server",
        "x-stack-secret-server-key": "this-secret-server-key-is-for-local-development-only",
      },
      body: JSON.stringify({
        user_id: await page.evaluate(
          async () =>
            (
              await (
                await fetch("/api/v1/users/me", {
                  headers: {
                    "x-stack-project-id": "internal",
                    "x-stack-access-type": "client",
                    "x-stack-access-token": decodeURIComponent(
                      document.cookie
                        .split("; ")
                        .find((c) => c.startsWith("stack-access="))
                        ?.split("=")[1] ?? "",
                    ),
                  },
                })
              ).json()
            ).id,
        ),
        is_impersonation: true,
      }),
    });
    assert.equal(res.status, 200);
    await page.goto(`${origin}/handler/account-settings`);
    const list = page.getByRole("list", { name: "Active sessions" });
    await list.getByText("This device").waitFor();
    await list.getByText("Impersonation").waitFor();
    assert.equal(await list.getByRole("listitem").count(), 2);
    assert.match(await list.getByRole("listitem").first().textContent(), /This device/);
    await list.getByRole("button", { name: "Revoke" }).click();
    await list.getByText("Impersonation").waitFor({ state: "detached" });
    assert.equal(await list.getByRole("listitem").count(), 1);
  });
}
