/**
 * Passkeys in the browser e2e, with Chromium's CDP virtual authenticator (TOOLCHAIN §6): turn
 * passkeys on for the internal project, add a passkey to a fresh account in account settings,
 * sign out, sign in with the passkey button and land signed in as that account. A sign-in with
 * no passkey on the device shows the friendly WebAuthn error. Passkeys are turned off at the end
 * so later steps see the sign-in page they expect.
 */
import { join } from "node:path";
import { assert } from "./harness.mjs";

/** The public development admin key of the internal project (worker/internal-seed.ts). */
const DEV_ADMIN_KEY = "this-super-secret-admin-key-is-for-local-development-only";

async function setPasskeysEnabled(origin, enabled) {
  const res = await fetch(`${origin}/api/v1/internal/projects/current`, {
    method: "PATCH",
    headers: {
      "content-type": "application/json",
      "x-stack-project-id": "internal",
      "x-stack-access-type": "admin",
      "x-stack-super-secret-admin-key": DEV_ADMIN_KEY,
    },
    body: JSON.stringify({ config: { passkey_enabled: enabled } }),
  });
  if (!res.ok) throw new Error(`could not set passkey_enabled=${enabled}: ${res.status} ${await res.text()}`);
}

export function definePasskeySteps(runner, { page, context, origin, shots }) {
  const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const input = (label) => page.getByLabel(label, { exact: true });
  const email = `passkey-${Date.now().toString(36)}@example.com`;
  const password = "passkey-account-password";
  let cdp = null;
  let authenticatorId = null;
  const signOut = async () => {
    await page.goto(`${origin}/handler/sign-out`);
    await page.waitForURL((url) => url.pathname === "/handler/sign-in" || url.pathname === "/");
  };

  runner.step("passkeys: turn passkeys on; a virtual authenticator joins the browser", async () => {
    await setPasskeysEnabled(origin, true);
    cdp = await context.newCDPSession(page);
    await cdp.send("WebAuthn.enable", { enableUI: false });
    ({ authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    }));
    assert.ok(authenticatorId, "the virtual authenticator has an id");
  });

  runner.step("passkeys: a fresh account adds a passkey in account settings", async () => {
    await signOut();
    await page.goto(`${origin}/handler/sign-up`);
    await input("Email").fill(email);
    await input("Password").fill(password);
    await input("Repeat password").fill(password);
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/handler/account-settings");
    const section = page.getByRole("region", { name: "Passkey" });
    await section.getByRole("button", { name: "Add a passkey" }).click();
    await section.getByRole("status").filter({ hasText: "Passkey saved." }).waitFor();
    await section.getByText("On", { exact: true }).waitFor();
    await section.getByRole("button", { name: "Replace passkey" }).waitFor();
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    assert.equal(credentials.length, 1);
    assert.equal(credentials[0].isResidentCredential, true);
    assert.equal(credentials[0].rpId, "localhost");
    await shot("09-passkey-added");
  });

  runner.step("passkeys: sign out, sign in with the passkey button, land signed in as that account", async () => {
    await signOut();
    await page.goto(`${origin}/handler/sign-in?after_auth_return_to=${encodeURIComponent("/handler/account-settings")}`);
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.waitForURL((url) => url.pathname === "/handler/account-settings");
    assert.equal(await input("Email").inputValue(), email);
    await page.getByRole("region", { name: "Passkey" }).getByText("On", { exact: true }).waitFor();
    await shot("10-passkey-signed-in");
  });

  runner.step("passkeys: with no passkey on the device, the button shows a friendly error", async () => {
    await signOut();
    await cdp.send("WebAuthn.clearCredentials", { authenticatorId });
    await page.goto(`${origin}/handler/sign-in`);
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.getByRole("alert").filter({ hasText: "The passkey prompt was closed or timed out" }).waitFor({ timeout: 70_000 });
    assert.equal(new URL(page.url()).pathname, "/handler/sign-in");
    await shot("11-passkey-none-on-device");
  });

  runner.step("passkeys: turn passkeys off again; the button is gone", async () => {
    await cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId });
    await cdp.detach();
    await setPasskeysEnabled(origin, false);
    await page.goto(`${origin}/handler/sign-in`);
    await page.getByRole("heading", { name: "Sign in to your account" }).waitFor();
    await page.getByLabel("Password", { exact: true }).waitFor();
    await page.waitForLoadState("networkidle");
    assert.equal(await page.getByRole("button", { name: "Sign in with a passkey" }).count(), 0);
  });
}
