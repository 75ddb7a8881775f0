/**
 * The console's Users pages in the browser e2e: a fresh owner creates a project (and, by the
 * admin API, a project permission), creates a user on the Users page (a bad email is a focused
 * field error first), finds it by search and by id, opens it, edits its server metadata (invalid
 * JSON is a focused field error, nothing saved), grants and revokes the permission, impersonates
 * the user (the new tab shows them; the session list marks the impersonation), revokes that
 * session, checks the pages at 375 px, and deletes the user after confirming.
 */
import { join } from "node:path";
import { adminApi, signUpOwnerWithProject } from "./console-owner.mjs";
import { assert } from "./harness.mjs";

export function defineConsoleUserSteps(runner, { page, origin, shots }) {
  const shot = (name, on = page) => on.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const input = (label) => page.getByLabel(label, { exact: true });
  const stamp = Date.now().toString(36);
  const owner = { email: `users-owner-${stamp}@example.com`, password: "users-owner-pass-1" };
  const user = { email: `users-ada-${stamp}@example.com`, password: "ada-password-1" };
  const state = { projectId: null, adminKey: null, userId: null, popup: null };
  const toast = (text) => page.locator(".toasts").getByText(text).first().waitFor();
  const focusedLabel = () => page.evaluate(() => document.activeElement?.labels?.[0]?.textContent ?? null);

  const api = (path, options) => adminApi(origin, state)(path, options);

  runner.step("console users: a new owner creates a project and a project permission", async () => {
    Object.assign(state, await signUpOwnerWithProject(page, origin, { ...owner, projectName: "User Shop" }));
    const created = await api("/project-permission-definitions", { method: "POST", body: { id: "read:reports" } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
  });

  runner.step("console users: create a user (a bad email is a focused field error first)", async () => {
    await page.goto(`${origin}/projects/${state.projectId}`);
    await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Users" }).click();
    await page.getByRole("heading", { name: "Users · User Shop" }).waitFor();
    await page.getByText("No users here yet.").waitFor();

    await input("Email").fill("not-an-email");
    await page.getByRole("button", { name: "Create user" }).click();
    await page.getByText("This is not an email address.").waitFor();
    assert.equal(await input("Email").getAttribute("aria-invalid"), "true");
    assert.equal(await focusedLabel(), "Email", "focus moves to the invalid email");

    await input("Email").fill(user.email);
    await input("Password (optional)").fill(user.password);
    await page.getByRole("checkbox", { name: "Email verified" }).check();
    await page.getByRole("button", { name: "Create user" }).click();
    await toast(`User ${user.email} created.`);
    await page.getByRole("link", { name: user.email }).waitFor();
    const listed = await api(`/users?query=${encodeURIComponent(user.email)}`);
    assert.equal(listed.body.items.length, 1);
    assert.equal(listed.body.items[0].primary_email_verified, true);
    assert.equal(listed.body.items[0].has_password, true);
    state.userId = listed.body.items[0].id;
    // A second user, so that the search below has something to leave out.
    await api("/users", { method: "POST", body: { primary_email: `users-bob-${stamp}@example.com`, primary_email_verified: true } });
  });

  runner.step("console users: search by email and by id, then open the user", async () => {
    const search = input("Search by email, name or id");
    await search.fill("bob");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByText("1 user on this page matching “bob”.").waitFor();
    assert.equal(await page.getByRole("link", { name: user.email }).count(), 0);

    await search.fill(state.userId);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByRole("link", { name: user.email }).waitFor();
    assert.ok(new URL(page.url()).searchParams.get("q") === state.userId, "the search is in the URL");

    await search.fill("ada");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByText("1 user on this page matching “ada”.").waitFor();
    await shot("console-users-01-list");
    await page.getByRole("link", { name: user.email }).click();
    await page.getByRole("heading", { name: `User · ${user.email}` }).waitFor();
    await page.getByText(state.userId).first().waitFor();
  });

  runner.step("console users: server metadata (invalid JSON is a field error, nothing saved)", async () => {
    const editor = input("Server metadata");
    await editor.fill('{"plan": pro}');
    await page.getByRole("button", { name: "Save server metadata" }).click();
    await page.getByText("This is not valid JSON").waitFor();
    assert.equal(await editor.getAttribute("aria-invalid"), "true");
    assert.equal(await focusedLabel(), "Server metadata", "focus moves to the invalid editor");
    assert.equal((await api(`/users/${state.userId}`)).body.server_metadata, null, "nothing was saved");

    await editor.fill('{"plan": "pro", "seats": 3}');
    await page.getByRole("button", { name: "Save server metadata" }).click();
    await toast("Server metadata saved.");
    assert.deepEqual((await api(`/users/${state.userId}`)).body.server_metadata, { plan: "pro", seats: 3 });
  });

  runner.step("console users: grant and revoke a project permission", async () => {
    const granted = page.getByRole("list", { name: "Granted project permissions" });
    await page.getByText("No project permission granted.").waitFor();
    await page.getByLabel("Permission to grant").selectOption("read:reports");
    await page.getByRole("button", { name: "Grant", exact: true }).click();
    await toast("Granted read:reports.");
    await granted.getByText("read:reports", { exact: true }).waitFor();
    const direct = async () => (await api(`/project-permissions?user_id=${state.userId}&recursive=false`)).body.items.map((p) => p.id);
    assert.deepEqual(await direct(), ["read:reports"]);

    await granted.getByRole("button", { name: "Revoke read:reports" }).click();
    const dialog = page.getByRole("dialog", { name: `Revoke read:reports from ${user.email}?` });
    await dialog.getByText("loses read:reports").waitFor();
    await dialog.getByRole("button", { name: "Revoke permission" }).click();
    await toast("Revoked read:reports.");
    await page.getByText("No project permission granted.").waitFor();
    assert.deepEqual(await direct(), []);
  });

  runner.step("console users: impersonate opens a tab showing the user; the session is marked", async () => {
    const [popup] = await Promise.all([page.waitForEvent("popup"), page.getByRole("button", { name: "Impersonate" }).click()]);
    state.popup = popup;
    await popup.getByRole("heading", { name: `You are viewing as ${user.email}` }).waitFor();
    assert.ok(popup.url().endsWith("/impersonate"), `the tokens are dropped from the address bar (${popup.url()})`);
    await popup.getByText(state.userId).waitFor();
    await shot("console-users-02-impersonation", popup);

    const sessions = page.getByRole("table", { name: "Active sessions" });
    await sessions.getByText("impersonation").waitFor();
    const listed = await api(`/auth/sessions?user_id=${state.userId}`);
    assert.deepEqual(
      listed.body.items.map((s) => s.is_impersonation),
      [true],
    );
  });

  runner.step("console users: revoke the impersonation session; the tab then ends cleanly", async () => {
    await page.getByRole("button", { name: /^Revoke the impersonation session/ }).click();
    const dialog = page.getByRole("dialog", { name: "Revoke this session?" });
    await dialog.getByRole("button", { name: "Revoke session" }).click();
    await toast("Session revoked.");
    await page.getByText("No active sessions.").waitFor();
    assert.deepEqual((await api(`/auth/sessions?user_id=${state.userId}`)).body.items, []);

    const popup = state.popup;
    await popup.bringToFront();
    await popup.getByRole("button", { name: "End impersonation" }).click();
    await popup.getByText("Impersonation ended").waitFor();
    await popup.close();
    await page.bringToFront();
  });

  runner.step("console users: the users pages fit 375 px", async () => {
    const size = page.viewportSize();
    await page.setViewportSize({ width: 375, height: 800 });
    try {
      // What of the page's own content sticks out past the right edge (tables scroll inside
      // .table-scroll, which is fine). The console's shared header is checked by the layout's tests.
      const overflowing = () =>
        page.evaluate(() =>
          [...document.querySelectorAll(".project-page *")]
            .filter((el) => !el.closest(".table-scroll") && el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
            .slice(0, 5)
            .map((el) => `${el.tagName.toLowerCase()}.${el.className} (${Math.round(el.getBoundingClientRect().right)}px)`),
        );
      assert.deepEqual(await overflowing(), [], "user page: nothing sticks out at 375 px");
      await shot("console-users-03-user-mobile");
      await page.getByRole("link", { name: "← Users" }).click();
      await page.getByRole("link", { name: user.email }).waitFor();
      assert.deepEqual(await overflowing(), [], "users list: nothing sticks out at 375 px");
    } finally {
      await page.setViewportSize(size);
    }
    await page.getByRole("link", { name: user.email }).click();
    await page.getByRole("heading", { name: `User · ${user.email}` }).waitFor();
  });

  runner.step("console users: delete the user after a confirmation that says what is lost", async () => {
    await page.getByRole("button", { name: "Delete user" }).click();
    const dialog = page.getByRole("dialog", { name: `Delete ${user.email}?` });
    await dialog.getByText("signed out everywhere").waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    assert.equal((await api(`/users/${state.userId}`)).status, 200, "cancel keeps the user");

    await page.getByRole("button", { name: "Delete user" }).click();
    await dialog.getByRole("button", { name: "Delete user" }).click();
    await page.getByRole("heading", { name: "Users · User Shop" }).waitFor();
    await toast(`${user.email} deleted.`);
    assert.equal((await api(`/users/${state.userId}`)).status, 404);
    assert.equal(await page.getByRole("link", { name: user.email }).count(), 0);
  });
}
