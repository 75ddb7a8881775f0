/**
 * The Sign-up rules and Protection pages in the browser e2e (issue 29): a fresh owner adds a rule
 * in the page (a condition the server refuses first: its CEL error on the condition field, with
 * aria-invalid and focus), the tester names the rule that rejects a throwaway address and shows the
 * evaluated context, a refused sign-up through the API shows in the rule's counts, and a protection
 * setting and the Turnstile secret (shown only as set) persist after a reload, a bad risk threshold
 * is a focused field error, and a rule deleted after confirming is gone.
 */
import { adminApi, signUpOwnerWithProject } from "./console-owner.mjs";
import { assert, expectFocused } from "./harness.mjs";

export function defineRulesSteps(runner, { page, origin }) {
  const input = (label) => page.getByLabel(label, { exact: true });
  const stamp = Date.now().toString(36);
  const projectName = `Rules Shop ${stamp}`;
  const secret = `ts-secret-${stamp}-never-shown`;
  const state = { project: null };
  const toast = (text) => page.locator(".toasts").getByText(text).waitFor();
  const nav = (label) => page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: label, exact: true });
  const openPage = async (label) => {
    await nav(label).click();
    await page.getByRole("heading", { level: 1, name: `${label} · ${projectName}` }).waitFor();
  };
  const newRule = () => page.getByRole("form", { name: "New sign-up rule" });

  runner.step("rules: a refused condition is a field error; the fixed rule is listed in evaluation order", async () => {
    state.project = await signUpOwnerWithProject(page, origin, {
      email: `rules-owner-${stamp}@example.com`,
      password: "rules-owner-pass-1",
      projectName,
    });
    await page.goto(`${origin}/projects/${state.project.projectId}`);
    await openPage("Sign-up rules");
    await page.getByText("No rule yet").waitFor();
    const form = newRule();
    await form.getByLabel("Rule id", { exact: true }).fill("no-throwaway");
    await form.getByLabel("Name", { exact: true }).fill("No throwaway mail");
    const condition = form.getByLabel("Condition (CEL)", { exact: true });
    await condition.fill('phone == "1"');
    await form.getByLabel("Action", { exact: true }).selectOption("reject");
    await form.getByLabel("Priority", { exact: true }).fill("10");
    await form.getByRole("button", { name: "Add rule" }).click();
    await form.getByText(/Unknown variable/).waitFor();
    assert.equal(await condition.getAttribute("aria-invalid"), "true");
    await expectFocused(condition, "the refused condition has focus");

    await condition.fill("emailDomainDisposable");
    await form.getByRole("button", { name: "Add rule" }).click();
    await toast("Rule no-throwaway added.");
    assert.equal(await condition.getAttribute("aria-invalid"), null);
    // A second, lower rule: the table lists them in the order they run.
    await form.getByLabel("Rule id", { exact: true }).fill("watch-all");
    await form.getByLabel("Condition (CEL)", { exact: true }).fill("true");
    await form.getByLabel("Action", { exact: true }).selectOption("log");
    await form.getByRole("button", { name: "Add rule" }).click();
    await toast("Rule watch-all added.");
    const ids = await page.locator("tr[data-rule-id]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-rule-id")));
    assert.deepEqual(ids, ["no-throwaway", "watch-all"]);
  });

  runner.step("rules: the tester names the rule that rejects a throwaway address, with the context", async () => {
    await input("Email").fill("someone@mailinator.com");
    await input("Country").fill("de");
    await page.getByRole("button", { name: "Test", exact: true }).click();
    const outcome = page.getByTestId("tester-outcome");
    await outcome.getByText("Rejected by rule No throwaway mail (no-throwaway).").waitFor();
    const context = page.locator(".tester-context");
    assert.match(await context.textContent(), /emailDomainDisposabletrue/);
    assert.match(await context.textContent(), /countryCode"DE"/);
    await input("Email").fill("ann@example.com");
    await page.getByRole("button", { name: "Test", exact: true }).click();
    await outcome.getByText("Allowed: no rule decided, so the default action (allow) did.").waitFor();
  });

  runner.step("rules: a refused sign-up shows in the rule's counts", async () => {
    const api = adminApi(origin, state.project);
    const refused = await api("/auth/password/sign-up", {
      method: "POST",
      body: { email: `x-${stamp}@mailinator.com`, password: "rules-user-pass-1" },
    });
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    assert.equal(refused.body.code, "SIGN_UP_REJECTED");
    await page.reload();
    await page.getByTestId("rule-counts-no-throwaway").getByText("1 / 1 / 1").waitFor();
    // The log rule runs after the reject rule decided: not reached, not counted.
    assert.equal((await page.getByTestId("rule-counts-watch-all").textContent()).trim(), "0 / 0 / 0");
  });

  runner.step("rules: a protection toggle and the Turnstile secret persist after a reload (the secret never shown)", async () => {
    await openPage("Protection");
    const devices = page.getByRole("checkbox", { name: "Verify new devices" });
    const before = await devices.isChecked();
    await devices.click();
    await toast(`New-device verification turned ${before ? "off" : "on"}.`);
    await page.getByTestId("turnstile-secret-state").getByText("Not set").waitFor();
    await input("Site key").fill("1x00000000000000000000AA");
    await input("Secret key").fill(secret);
    await page.getByRole("checkbox", { name: "Password sign-up" }).check();
    await page.getByRole("button", { name: "Save bot protection" }).click();
    await toast("Bot protection saved.");
    await page.reload();
    await page.getByRole("heading", { level: 1, name: `Protection · ${projectName}` }).waitFor();
    assert.equal(await page.getByRole("checkbox", { name: "Verify new devices" }).isChecked(), !before);
    await page.getByTestId("turnstile-secret-state").getByText("Set (stored sealed, never shown)").waitFor();
    assert.equal(await input("Site key").inputValue(), "1x00000000000000000000AA");
    assert.equal(await page.getByRole("checkbox", { name: "Password sign-up" }).isChecked(), true);
    assert.equal(await input("Replace the secret key").inputValue(), "");
    assert.ok(!(await page.content()).includes(secret), "the secret key is never in the page");
  });

  runner.step("rules: a bad threshold is a field error; a rule deleted after confirming is gone after a reload", async () => {
    const threshold = input("Ask for a bot check from score");
    await threshold.fill("150");
    await page.getByRole("button", { name: "Save thresholds" }).click();
    await page.getByText("Use a whole number from 0 to 101 (101: never).").waitFor();
    assert.equal(await threshold.getAttribute("aria-invalid"), "true");
    await expectFocused(threshold, "the invalid threshold has focus");
    await threshold.fill("40");
    await page.getByRole("button", { name: "Save thresholds" }).click();
    await toast("Risk thresholds saved.");
    assert.equal(await threshold.getAttribute("aria-invalid"), null);

    await openPage("Sign-up rules");
    await page.getByRole("button", { name: "Delete rule watch-all" }).click();
    await page.getByRole("dialog", { name: "Delete rule watch-all?" }).getByRole("button", { name: "Delete rule" }).click();
    await toast("Rule watch-all deleted.");
    await page.reload();
    await page.locator('tr[data-rule-id="no-throwaway"]').waitFor();
    assert.equal(await page.locator('tr[data-rule-id="watch-all"]').count(), 0);
  });
}
