/**
 * The console's event log in the browser e2e: changes made through the admin API show on the
 * Events page (newest first, with who made them), the type filter narrows the list, and a user's
 * page lists that user's events.
 */
import { adminApi, signUpOwnerWithProject } from "./console-owner.mjs";
import { assert } from "./harness.mjs";

export function defineConsoleEventSteps(runner, { page, origin }) {
  const stamp = Date.now().toString(36);
  let project = null;
  let userId = "";

  runner.step("console events: changes made by the admin API are listed with who made them, newest first", async () => {
    project = await signUpOwnerWithProject(page, origin, {
      email: `events-owner-${stamp}@example.com`,
      password: "events-owner-pass-1",
      projectName: `Events Shop ${stamp}`,
    });
    const api = adminApi(origin, project);
    const created = await api("/users", { method: "POST", body: { display_name: "Grace" } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    userId = created.body.id;
    assert.equal((await api(`/users/${userId}`, { method: "PATCH", body: { display_name: "Grace H." } })).status, 200);

    await page.goto(`${origin}/projects/${project.projectId}/events`);
    await page.getByRole("heading", { name: `Events · Events Shop ${stamp}` }).waitFor();
    const table = page.getByRole("table", { name: "Events" });
    await table.getByRole("cell", { name: /user\.updated/ }).waitFor();
    const types = await table.locator("tbody tr td:nth-child(2) code").allTextContents();
    // Oldest last: the owner's setup turned new-device verification off (console-owner.mjs), a config change.
    assert.deepEqual(types, ["user.updated", "user.created", "project.config_changed"]);
    await table.getByText("an owner (console or admin key)").first().waitFor();
  });

  runner.step("console events: the type filter narrows the list; the user's page lists the user's events", async () => {
    await page.getByLabel("Type", { exact: true }).selectOption("user.created");
    await page.getByRole("button", { name: "Show events" }).click();
    const table = page.getByRole("table", { name: "Events" });
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Events"] tbody tr').length === 1);
    assert.deepEqual(await table.locator("tbody tr td:nth-child(2) code").allTextContents(), ["user.created"]);

    await page.goto(`${origin}/projects/${project.projectId}/users/${userId}`);
    const mine = page.getByRole("table", { name: "Events of this user" });
    await mine.getByRole("cell", { name: /user\.updated/ }).waitFor();
    assert.equal(await mine.locator("tbody tr").count(), 2);
  });
}
