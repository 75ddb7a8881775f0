/**
 * "Recent activity" in account settings (issue 13): a user who signed in and changed the password
 * sees both, newest first and in plain words, with the failed attempt before them marked; the list
 * pages with "Show more" and fits a 375 px screen.
 */
import { join } from "node:path";
import { assert } from "./harness.mjs";

const CLIENT_HEADERS = {
  "content-type": "application/json",
  "x-stack-project-id": "internal",
  "x-stack-access-type": "client",
  "x-stack-publishable-client-key": "this-publishable-client-key-is-for-local-development-only",
};

export function defineActivitySteps(runner, { page, origin, shots }) {
  const stamp = Date.now().toString(36);
  const email = `activity-${stamp}@example.com`;
  const password = "activity-pass-1";
  const newPassword = "activity-pass-2";
  const input = (label) => page.getByLabel(label, { exact: true });
  const entries = () => page.getByRole("list", { name: "Recent activity" }).getByRole("listitem");
  const settings = async () => {
    await page.goto(`${origin}/handler/account-settings`);
    await page.getByRole("heading", { name: "Recent activity" }).waitFor();
    await entries().first().waitFor();
  };

  runner.step("recent activity: sign in (after a wrong password), change the password, see both in plain words", async () => {
    await page.goto(`${origin}/handler/sign-out`);
    await page.waitForURL((url) => url.pathname === "/handler/sign-in" || url.pathname === "/");
    await page.goto(`${origin}/handler/sign-up`);
    await input("Email").fill(email);
    await input("Password").fill(password);
    await input("Repeat password").fill(password);
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/handler/account-settings");
    await page.goto(`${origin}/handler/sign-out`);
    await page.waitForURL((url) => url.pathname === "/handler/sign-in" || url.pathname === "/");

    await page.goto(`${origin}/handler/sign-in`);
    await input("Email").fill(email);
    await input("Password").fill("not-the-password-9");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "Wrong e-mail or password." }).waitFor();
    await input("Password").fill(password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((url) => url.pathname !== "/handler/sign-in");

    await settings();
    await input("Current password").fill(password);
    await input("New password").fill(newPassword);
    await input("Repeat new password").fill(newPassword);
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByRole("status").filter({ hasText: "Password changed." }).waitFor();

    await settings();
    const texts = (await entries().allTextContents()).map((t) => t.replace(/\s+/g, " ").trim());
    assert.match(texts[0], /^Password changed/);
    assert.match(texts[1], /^Signed in with password/);
    assert.match(texts[2], /Failed sign-in attempt \(wrong password\)/);
    assert.match(texts[3], /^Signed out/);
    assert.match(texts[4], /^Signed in with password/);
    assert.equal(texts.length, 5, texts.join("\n"));
    // Time (absolute in the title), device from the browser's user agent, and the warning on the failed attempt.
    assert.match(texts[1], /just now · Chrome on Linux/);
    const time = entries().nth(1).locator("time");
    assert.ok(Date.parse(await time.getAttribute("datetime")) > Date.now() - 10 * 60_000);
    assert.ok((await time.getAttribute("title"))?.length > 0);
    await entries().nth(2).getByText("Check this").waitFor();
    assert.equal(await page.getByRole("button", { name: "Show more" }).count(), 0);
    await page.getByRole("heading", { name: "Recent activity" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, "activity-01-recent.png") });
  });

  runner.step("recent activity: more than a page shows 'Show more', which adds the older entries; fits 375 px", async () => {
    // 20 more sign-ins through the API: the newest 20 fill the first page, the rest wait behind "Show more".
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${origin}/api/v1/auth/password/sign-in`, {
        method: "POST",
        headers: CLIENT_HEADERS,
        body: JSON.stringify({ email, password: newPassword }),
      });
      assert.equal(res.status, 200);
    }
    await settings();
    assert.equal(await entries().count(), 20);
    await page.getByRole("button", { name: "Show more" }).click();
    await page.waitForFunction(() => document.querySelectorAll('ul[aria-labelledby="stack-activity-heading"] > li').length === 25);
    const texts = (await entries().allTextContents()).map((t) => t.trim());
    assert.match(texts[20], /^Password changed/);
    assert.match(texts[24], /^Signed in with password/);
    assert.equal(await page.getByRole("button", { name: "Show more" }).count(), 0);

    await page.setViewportSize({ width: 375, height: 800 });
    try {
      await page.getByRole("heading", { name: "Recent activity" }).scrollIntoViewIfNeeded();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px at 375 px`);
      await page.screenshot({ path: join(shots, "activity-02-narrow.png") });
    } finally {
      await page.setViewportSize({ width: 1100, height: 800 });
    }
  });
}
