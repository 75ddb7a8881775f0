/**
 * User API keys in the browser e2e: the internal project's flags are turned on through the admin
 * API (dev admin key), then a fresh user creates a key in account settings (shown once, copied
 * to the real clipboard, then only its last four), the server API accepts it, and the user
 * revokes it after confirming.
 */
import { join } from "node:path";
import { assert } from "./harness.mjs";

const DEV_ADMIN_KEY = "this-super-secret-admin-key-is-for-local-development-only";
const DEV_SERVER_KEY = "this-secret-server-key-is-for-local-development-only";
const KEY_PATTERN = /^sk_[0-9a-z]{45}[0-9a-f]{32}user[0-9a-z]574ck4u7h[0-9a-f]{8}$/;

export function defineApiKeySteps(runner, { page, context, origin, shots }) {
  const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const input = (label) => page.getByLabel(label, { exact: true });
  const email = `api-keys-${Date.now().toString(36)}@example.com`;
  const password = "api-keys-user-pass-1";
  const section = () => page.getByRole("region", { name: "API keys", exact: true });
  let created = "";

  /** A server-key call to the internal project, from Node. */
  const api = async (path, { method = "POST", body, access = "server" } = {}) => {
    const headers = { "content-type": "application/json", "x-stack-project-id": "internal", "x-stack-access-type": access };
    if (access === "admin") headers["x-stack-super-secret-admin-key"] = DEV_ADMIN_KEY;
    else headers["x-stack-secret-server-key"] = DEV_SERVER_KEY;
    const res = await fetch(`${origin}/api/v1${path}`, { method, headers, body: JSON.stringify(body) });
    return { status: res.status, body: await res.json().catch(() => null) };
  };

  runner.step("api keys: enable user and team API keys on the internal project (admin API)", async () => {
    const res = await api("/internal/projects/current", {
      method: "PATCH",
      access: "admin",
      body: { config: { allow_user_api_keys: true, allow_team_api_keys: true } },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.config.allow_user_api_keys, true);
  });

  runner.step("api keys: create a user key in account settings, shown once and copyable", async () => {
    await page.goto(`${origin}/handler/sign-out`);
    await page.waitForURL((url) => url.pathname === "/handler/sign-in" || url.pathname === "/");
    await page.goto(`${origin}/handler/sign-up`);
    await input("Email").fill(email);
    await input("Password").fill(password);
    await input("Repeat password").fill(password);
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/handler/account-settings");
    await section().getByText("No API keys yet.").waitFor();

    await section().getByLabel("Description", { exact: true }).fill("E2E laptop");
    await section().getByLabel("Expires after").selectOption({ label: "30 days" });
    await section().getByRole("button", { name: "Create API key" }).click();
    created = (await page.getByTestId("new-api-key").textContent()) ?? "";
    assert.match(created, KEY_PATTERN);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
    await section().getByRole("button", { name: "Copy API key" }).click();
    await section().getByText("Copied", { exact: true }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), created);
    await shot("api-keys-01-created");

    await section().getByRole("button", { name: "Done" }).click();
    await page.getByTestId("new-api-key").waitFor({ state: "detached" });
    const item = section().getByTestId("api-key-item").filter({ hasText: "E2E laptop" });
    await item.getByText(`…${created.slice(-4)}`).waitFor();
    await item.getByText("Active").waitFor();
    await page.reload();
    await item.getByText(`…${created.slice(-4)}`).waitFor();
    assert.equal((await page.content()).includes(created), false, "the full key must not be shown again");

    const check = await api("/user-api-keys/check", { body: { api_key: created } });
    assert.equal(check.status, 200, JSON.stringify(check.body));
    assert.equal(check.body.description, "E2E laptop");
  });

  runner.step("api keys: revoke the key after confirming; the API refuses it", async () => {
    const item = section().getByTestId("api-key-item").filter({ hasText: "E2E laptop" });
    await item.getByRole("button", { name: "Revoke" }).click();
    await item.getByText("Revoke for good?").waitFor();
    await item.getByRole("button", { name: "Confirm revoke" }).click();
    await item.getByText("Revoked").waitFor();
    await shot("api-keys-02-revoked");
    const check = await api("/user-api-keys/check", { body: { api_key: created } });
    assert.equal(check.body?.code, "API_KEY_REVOKED");
  });
}

const TEAM_KEY_PATTERN = /^sk_[0-9a-z]{45}[0-9a-f]{32}team[0-9a-z]574ck4u7h[0-9a-f]{8}$/;

/**
 * Team API keys in team settings: a fresh user creates a team (creators get team_admin, which holds
 * $manage_api_keys), creates a team key there (shown once, then only its last four, also after a
 * reload), the server API accepts it, the user revokes it after confirming and the API refuses it.
 * A plain member (team_member: no $manage_api_keys) does not get the section until the server
 * grants the permission.
 */
export function defineTeamApiKeySteps(runner, { page, origin, shots }) {
  const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const input = (label) => page.getByLabel(label, { exact: true });
  const stamp = Date.now().toString(36);
  const owner = { email: `team-keys-owner-${stamp}@example.com`, password: "team-keys-owner-1" };
  const member = { email: `team-keys-member-${stamp}@example.com`, password: "team-keys-member-1" };
  const teamName = `Key Keepers ${stamp}`;
  const teams = () => page.getByRole("region", { name: "Teams", exact: true });
  const section = () => teams().getByRole("region", { name: "Team API keys", exact: true });
  const item = () => section().getByTestId("api-key-item").filter({ hasText: "E2E deploy bot" });
  const lastFour = () => item().getByText(`…${created.slice(-4)}`, { exact: true });
  let teamId = "";
  let created = "";

  const api = async (path, { method = "POST", body, access = "server" } = {}) => {
    const headers = { "content-type": "application/json", "x-stack-project-id": "internal", "x-stack-access-type": access };
    if (access === "admin") headers["x-stack-super-secret-admin-key"] = DEV_ADMIN_KEY;
    else headers["x-stack-secret-server-key"] = DEV_SERVER_KEY;
    const res = await fetch(`${origin}/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: await res.json().catch(() => null) };
  };
  const signOut = async () => {
    await page.goto(`${origin}/handler/sign-out`);
    await page.waitForURL((url) => url.pathname === "/handler/sign-in" || url.pathname === "/");
  };

  runner.step("team api keys: team API keys and client team creation are on (admin API)", async () => {
    const res = await api("/internal/projects/current", {
      method: "PATCH",
      access: "admin",
      body: { config: { allow_team_api_keys: true, client_team_creation_enabled: true } },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.config.allow_team_api_keys, true);
    assert.equal(res.body.config.client_team_creation_enabled, true);
  });

  runner.step("team api keys: a team creator creates a team key, shown once, then only its last four", async () => {
    await signOut();
    await page.goto(`${origin}/handler/sign-up`);
    await input("Email").fill(owner.email);
    await input("Password").fill(owner.password);
    await input("Repeat password").fill(owner.password);
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/handler/account-settings");
    await teams().getByLabel("New team name", { exact: true }).fill(teamName);
    await teams().getByRole("button", { name: "Create team", exact: true }).click();
    await teams()
      .getByRole("status")
      .filter({ hasText: `Team ${teamName} created.` })
      .waitFor();
    const switcher = teams().getByLabel("Selected team", { exact: true });
    await switcher.locator("option:checked", { hasText: teamName }).waitFor({ state: "attached" });
    teamId = await switcher.inputValue();

    await section().getByText("No API keys yet.").waitFor();
    await section().getByLabel("Description", { exact: true }).fill("E2E deploy bot");
    await section().getByLabel("Expires after", { exact: true }).selectOption({ label: "7 days" });
    await section().getByRole("button", { name: "Create API key", exact: true }).click();
    const shown = section().getByTestId("new-api-key");
    created = (await shown.textContent()) ?? "";
    assert.match(created, TEAM_KEY_PATTERN);
    await section().getByRole("status").filter({ hasText: "API key created." }).waitFor();
    await shot("team-api-keys-01-created");

    await section().getByRole("button", { name: "Done", exact: true }).click();
    await shown.waitFor({ state: "detached" });
    await lastFour().waitFor();
    await item().getByText("Active", { exact: true }).waitFor();
    assert.equal((await page.content()).includes(created), false, "the full key is gone after Done");
    await page.reload();
    await lastFour().waitFor();
    assert.equal((await page.content()).includes(created), false, "the full key must not be shown again");

    const check = await api("/team-api-keys/check", { body: { api_key: created } });
    assert.equal(check.status, 200, JSON.stringify(check.body));
    assert.equal(check.body.type, "team");
    assert.equal(check.body.team_id, teamId);
    assert.equal(check.body.description, "E2E deploy bot");
    // A team key is not a user key.
    const asUser = await api("/user-api-keys/check", { body: { api_key: created } });
    assert.notEqual(asUser.status, 200, JSON.stringify(asUser.body));
  });

  runner.step("team api keys: revoke the team key after confirming; the API refuses it", async () => {
    await item().getByRole("button", { name: "Revoke", exact: true }).click();
    await item().getByText("Revoke for good?").waitFor();
    await item().getByRole("button", { name: "Confirm revoke", exact: true }).click();
    await item().getByText("Revoked", { exact: true }).waitFor();
    await section().getByRole("status").filter({ hasText: "API key revoked." }).waitFor();
    await shot("team-api-keys-02-revoked");
    const check = await api("/team-api-keys/check", { body: { api_key: created } });
    assert.equal(check.body?.code, "API_KEY_REVOKED", JSON.stringify(check.body));
  });

  runner.step("team api keys: a member without $manage_api_keys has no section until granted it", async () => {
    const user = await api("/users", {
      body: { primary_email: member.email, primary_email_auth_enabled: true, password: member.password },
    });
    assert.equal(user.status, 201, JSON.stringify(user.body));
    const joined = await api(`/team-memberships/${teamId}/${user.body.id}`, { body: {} });
    assert.equal(joined.status, 201, JSON.stringify(joined.body));

    await signOut();
    await page.goto(`${origin}/handler/sign-in`);
    await input("Email").fill(member.email);
    await input("Password").fill(member.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((url) => url.pathname !== "/handler/sign-in");
    await page.goto(`${origin}/handler/account-settings`);
    await teams().getByLabel("Selected team", { exact: true }).selectOption({ label: teamName });
    // Wait for THIS team's settings (the switch is async; the member's own personal team shows
    // first), then for its invitation form, which needs $invite_members (team_member has it):
    // from then on this team's permissions are loaded.
    const settings = teams().locator(`[data-team-id="${teamId}"]`);
    await settings.waitFor();
    await settings.getByLabel("Invite by email", { exact: true }).waitFor();
    assert.equal(await section().count(), 0, "no team API keys section without $manage_api_keys");

    const granted = await api(`/team-permissions/${teamId}/${user.body.id}/$manage_api_keys`, { body: {} });
    assert.equal(granted.status, 201, JSON.stringify(granted.body));
    await page.reload();
    await item().getByText("Revoked", { exact: true }).waitFor();
    await shot("team-api-keys-03-member-granted");
  });
}
