/**
 * The console's Users pages in the browser e2e: a fresh owner creates a project (and, by the
 * admin API, a project permission), creates a user on the Users page (a bad email is a focused
 * field error first), sorts the list by email and by name, finds it by search and by id, opens
 * it, edits its server metadata (invalid JSON is a focused field error, nothing saved), grants and
 * revokes the permission, impersonates the user (the new tab shows them; the session list marks
 * the impersonation), revokes that session, sees a sign-in session's address and times, signs
 * the user out everywhere (after confirming), restricts the user (after confirming) and lifts it,
 * checks the pages at 375 px, deletes the user after confirming, and signs out all users of the
 * project from the settings page (after confirming; the owner's console session stays).
 */
import { join } from "node:path";
import { adminApi, signUpOwnerWithProject } from "./console-owner.mjs";
import { assert, expectFocused } from "./harness.mjs";

export function defineConsoleUserSteps(runner, { page, origin, shots }) {
  const shot = (name, on = page) => on.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const input = (label) => page.getByLabel(label, { exact: true });
  const stamp = Date.now().toString(36);
  const owner = { email: `users-owner-${stamp}@example.com`, password: "users-owner-pass-1" };
  const user = { email: `users-ada-${stamp}@example.com`, password: "ada-password-1" };
  const state = { projectId: null, adminKey: null, userId: null, popup: null };
  const toast = (text) => page.locator(".toasts").getByText(text).first().waitFor();

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
    await expectFocused(input("Email"), "focus moves to the invalid email");

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
    // A second user, so that the search below has something to leave out (and the sort something to order).
    await api("/users", {
      method: "POST",
      body: { primary_email: `users-bob-${stamp}@example.com`, primary_email_verified: true, display_name: "Bob Builder" },
    });
  });

  runner.step("console users: sort the list by email and by name (users without a name last)", async () => {
    // A third user whose email sorts first but whose name does not; each sort below changes the order.
    await api("/users", {
      method: "POST",
      body: { primary_email: `users-abe-${stamp}@example.com`, primary_email_verified: true, display_name: "Cleo" },
    });
    await page.reload();
    // The list shows exactly these links in this order (it is re-read after each change of sort).
    const order = (expected) =>
      page.waitForFunction(
        (want) => [...document.querySelectorAll(".user-table a")].map((a) => a.textContent).join("|") === want.join("|"),
        expected,
      );
    const sortBy = page.getByLabel("Sort by");
    await order(["Cleo", "Bob Builder", user.email]);
    await sortBy.selectOption({ label: "Email, A to Z" });
    await order(["Cleo", user.email, "Bob Builder"]);
    assert.equal(new URL(page.url()).searchParams.get("sort"), "email", "the sort is in the URL");
    await sortBy.selectOption({ label: "Name, A to Z" });
    await order(["Bob Builder", "Cleo", user.email]);
    await sortBy.selectOption({ label: "Email, Z to A" });
    await order(["Bob Builder", user.email, "Cleo"]);
    await sortBy.selectOption({ label: "Name, Z to A" });
    await order(["Cleo", "Bob Builder", user.email]);
    await sortBy.selectOption({ label: "Oldest first" });
    await order([user.email, "Bob Builder", "Cleo"]);
    await sortBy.selectOption({ label: "Newest first" });
    await order(["Cleo", "Bob Builder", user.email]);
    assert.equal(new URL(page.url()).searchParams.get("sort"), null);
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
    await expectFocused(input("Server metadata"), "focus moves to the invalid editor");
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

  runner.step("console users: a sign-in session shows its last address, place and times", async () => {
    const res = await fetch(`${origin}/api/v1/auth/password/sign-in`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-stack-project-id": state.projectId,
        "x-stack-access-type": "admin",
        "x-stack-super-secret-admin-key": state.adminKey,
        "x-real-ip": "203.0.113.7",
      },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    assert.equal(res.status, 200, await res.text());
    const [session] = (await api(`/auth/sessions?user_id=${state.userId}`)).body.items;
    const info = session.last_used_at_end_user_ip_info ?? {};
    assert.ok(info.ip && info.ip !== "unknown", `the API knows the address (${JSON.stringify(info)})`);

    await page.getByRole("button", { name: "Reload sessions" }).click();
    const row = page.getByRole("table", { name: "Active sessions" }).getByRole("row").nth(1);
    await row.getByText(info.ip, { exact: true }).waitFor();
    assert.equal(await row.getByText("sign-in").count(), 1);
    const cells = await row.getByRole("cell").allTextContents();
    assert.ok(cells[0] && cells[0] !== "—", `started is shown (${cells})`);
    // A loopback or private address (wrangler's own, locally) has no place: "local", whatever city the dev server invents (issue 28).
    if (/^(127\.|10\.|192\.168\.|::1$|::ffff:127\.)/.test(info.ip))
      assert.equal(cells[3], "local", `a local address reads local (${cells[3]})`);
    else if (info.cityName) assert.ok(cells[3].includes(info.cityName), `the place names the city (${cells[3]})`);
    else if (!info.countryCode) assert.equal(cells[3], "unknown");
  });

  runner.step("console users: sign out everywhere ends every session of the user after confirming", async () => {
    const sessionsOf = async () => (await api(`/auth/sessions?user_id=${state.userId}`)).body.items;
    assert.ok((await sessionsOf()).length > 0, "the user has a session to end");
    const open = page.getByRole("button", { name: `Sign out everywhere: ${user.email}` });
    await open.click();
    const dialog = page.getByRole("dialog", { name: `Sign ${user.email} out everywhere?` });
    await dialog.getByText("The user can sign in again.").waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    assert.ok((await sessionsOf()).length > 0, "cancel ends nothing");

    await open.click();
    await dialog.getByRole("button", { name: "Sign out everywhere" }).click();
    await toast(`${user.email} is signed out everywhere.`);
    await page.getByText("No active sessions.").waitFor();
    assert.deepEqual(await sessionsOf(), []);
  });

  runner.step("console users: restrict the user after confirming, then lift it", async () => {
    await input("Reason shown to the user").fill("Chargeback under review");
    await input("Private details (admins only)").fill("case 42");
    await page.getByRole("button", { name: "Restrict user" }).click();
    const dialog = page.getByRole("dialog", { name: `Restrict ${user.email}?` });
    await dialog.getByText("Nothing is deleted").waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    assert.equal((await api(`/users/${state.userId}`)).body.restricted_by_admin, false, "cancel restricts nothing");

    await page.getByRole("button", { name: "Restrict user" }).click();
    await dialog.getByRole("button", { name: "Restrict user" }).click();
    await toast(`${user.email} restricted.`);
    await page.getByRole("region", { name: "Restriction" }).getByText("restricted by admin", { exact: true }).waitFor();
    assert.equal(await input("Reason shown to the user").inputValue(), "Chargeback under review");
    const restricted = (await api(`/users/${state.userId}`)).body;
    assert.equal(restricted.restricted_by_admin, true);
    assert.equal(restricted.restricted_by_admin_reason, "Chargeback under review");
    assert.equal(restricted.restricted_by_admin_private_details, "case 42");
    assert.equal(restricted.is_restricted, true);
    await shot("console-users-03-restricted");

    await page.getByRole("button", { name: "Lift restriction" }).click();
    await toast(`Restriction of ${user.email} lifted.`);
    await page.getByText("Not restricted by an admin.").waitFor();
    const lifted = (await api(`/users/${state.userId}`)).body;
    assert.equal(lifted.restricted_by_admin, false);
    assert.equal(lifted.restricted_by_admin_reason, null);
    assert.equal(lifted.is_restricted, false);
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
      await shot("console-users-04-user-mobile");
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

  runner.step("console settings: sign out all users after a confirmation; the owner stays signed in", async () => {
    const created = await api("/users", {
      method: "POST",
      body: { primary_email: `users-cy-${stamp}@example.com`, primary_email_verified: true },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const opened = await api("/auth/sessions", { method: "POST", body: { user_id: created.body.id } });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    const sessionsOf = async () => (await api(`/auth/sessions?user_id=${created.body.id}`)).body.items;

    await page.goto(`${origin}/projects/${state.projectId}/settings`);
    await page.getByRole("heading", { name: "Settings · User Shop" }).waitFor();
    const open = page.getByRole("button", { name: "Sign out all users" });
    await open.click();
    const dialog = page.getByRole("dialog", { name: "Sign out every user of User Shop?" });
    await dialog.getByText("Users keep their accounts").waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    assert.equal((await sessionsOf()).length, 1, "cancel ends nothing");

    await open.click();
    await dialog.getByRole("button", { name: "Sign out all users" }).click();
    await toast(/^Signed out all users \(\d+ sessions? ended\)\.$/);
    assert.deepEqual(await sessionsOf(), []);
    // The owner's console session belongs to the internal project: the console still works.
    await page.reload();
    await page.getByRole("heading", { name: "Settings · User Shop" }).waitFor();
    await page.getByRole("button", { name: "Sign out all users" }).waitFor();
  });
}
