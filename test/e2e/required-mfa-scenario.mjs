/**
 * Issue 25, a required second factor in the browser: the internal project turns on
 * `require_mfa` (admin API), a new user signs up and is led through the TOTP set-up on the mfa
 * page (QR code, a first code) before getting a session, sees the recovery codes once, and lands
 * signed in with two-factor on. The setting is turned off again afterwards.
 */
import { join } from "node:path";
import { assert } from "./harness.mjs";

const DEV_ADMIN_KEY = "this-super-secret-admin-key-is-for-local-development-only";

export function defineRequiredMfaSteps(runner, { page, origin, shots }) {
  const input = (label) => page.getByLabel(label, { exact: true });
  const email = `required-mfa-${Date.now().toString(36)}@example.com`;
  const password = "required-mfa-pass-1";
  const setRequired = async (on) => {
    const res = await fetch(`${origin}/api/v1/internal/projects/current`, {
      method: "PATCH",
      headers: {
        "content-type": "application/json",
        "x-stack-project-id": "internal",
        "x-stack-access-type": "admin",
        "x-stack-super-secret-admin-key": DEV_ADMIN_KEY,
      },
      body: JSON.stringify({ config: { require_mfa: on } }),
    });
    assert.equal(res.status, 200, await res.text());
  };

  runner.step("required 2FA: a new user is led through TOTP set-up before getting a session", async () => {
    await setRequired(true);
    try {
      await page.goto(`${origin}/handler/sign-out`);
      await page.waitForURL((url) => url.pathname === "/handler/sign-in" || url.pathname === "/");
      await page.goto(`${origin}/handler/sign-up`);
      await input("Email").fill(email);
      await input("Password").fill(password);
      await input("Repeat password").fill(password);
      await page.getByRole("button", { name: "Sign up", exact: true }).click();
      await page.waitForURL((url) => url.pathname === "/handler/mfa");
      await page.getByText("Set up two-factor authentication").waitFor();
      const qr = page.getByRole("img", { name: "QR code for your authenticator app" });
      await qr.waitFor();
      assert.ok((await qr.evaluate((img) => img.naturalWidth)) > 0, "the QR code image decoded");
      // No session yet: the API has no signed-in user.
      const before = await page.evaluate(
        async () => (await fetch("/api/v1/users/me", { headers: { "x-stack-project-id": "internal" } })).status,
      );
      assert.notEqual(before, 200);

      const uri = await page.getByRole("link", { name: "Open in an authenticator app" }).getAttribute("href");
      const secret = new URL(uri).searchParams.get("secret");
      const { decodeBase32IgnorePadding } = await import("@oslojs/encoding");
      const { generateHOTP } = await import("@oslojs/otp");
      const totp = generateHOTP(decodeBase32IgnorePadding(secret), BigInt(Math.floor(Date.now() / 30_000)), 6);
      await input("Code").fill(totp);
      await page.getByRole("button", { name: "Turn on and sign in" }).click();
      await page.getByText("Two-factor authentication is on").waitFor();
      const codes = await page.getByTestId("recovery-codes").locator("code").allTextContents();
      assert.equal(codes.length, 10, "ten recovery codes shown once");
      await page.screenshot({ path: join(shots, "required-mfa-recovery-codes.png"), fullPage: true });
      await page.getByRole("link", { name: "Continue" }).click();
      await page.goto(`${origin}/handler/account-settings`);
      await page.getByRole("region", { name: "Two-factor authentication" }).getByText("On", { exact: true }).waitFor();
    } finally {
      await setRequired(false);
    }
  });
}
