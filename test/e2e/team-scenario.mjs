/**
 * Teams in the browser e2e: a fresh user creates a team in account settings and invites a second
 * address; the invitation is read from the SMTP sink; the invitee opens the link signed out,
 * creates an account from it, comes back and joins; then the server (dev secret key) grants the
 * invitee $update_team and the team settings start offering the rename form.
 */
import { join } from "node:path";
import { assert } from "./harness.mjs";
import { linkIn } from "./mail.mjs";

const DEV_ADMIN_KEY = "this-super-secret-admin-key-is-for-local-development-only";
const DEV_SERVER_KEY = "this-secret-server-key-is-for-local-development-only";

/** Registers the team steps; the returned state (team id, invitee) is filled in as they run. */
export function defineTeamSteps(runner, { page, origin, shots, mail }) {
  const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const input = (label) => page.getByLabel(label, { exact: true });
  const stamp = Date.now().toString(36);
  const owner = { email: `team-owner-${stamp}@example.com`, password: "team-owner-pass-1" };
  const invitee = { email: `team-invitee-${stamp}@example.com`, password: "team-invitee-pass-1" };
  const teamName = `Rocketeers ${stamp}`;
  const state = { teamId: null, owner, invitee };
  const teams = () => page.getByRole("region", { name: "Teams", exact: true });

  const api = async (path, { method = "GET", body, access = "server" } = {}) => {
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
  const fillSignUp = async ({ email, password }) => {
    await input("Email").fill(email);
    await input("Password").fill(password);
    await input("Repeat password").fill(password);
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
  };

  runner.step("teams: client team creation is on for the internal project (admin API)", async () => {
    const res = await api("/internal/projects/current", {
      method: "PATCH",
      access: "admin",
      body: { config: { client_team_creation_enabled: true } },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.config.client_team_creation_enabled, true);
  });

  runner.step("teams: a new user creates a team and invites a second address", async () => {
    await signOut();
    await page.goto(`${origin}/handler/sign-up`);
    await fillSignUp(owner);
    await page.waitForURL((url) => url.pathname === "/handler/account-settings");
    await teams().getByLabel("New team name", { exact: true }).fill(teamName);
    await teams().getByRole("button", { name: "Create team" }).click();
    await teams()
      .getByRole("status")
      .filter({ hasText: `Team ${teamName} created.` })
      .waitFor();
    // The new team is selected, and its creator may invite.
    const switcher = teams().getByLabel("Selected team", { exact: true });
    await switcher.locator("option:checked", { hasText: teamName }).waitFor({ state: "attached" });
    state.teamId = await switcher.inputValue();
    await teams().getByLabel("Invite by email", { exact: true }).fill(invitee.email);
    await teams().getByRole("button", { name: "Send invitation" }).click();
    await teams()
      .getByRole("status")
      .filter({ hasText: `Invitation sent to ${invitee.email}.` })
      .waitFor();
    await teams().getByRole("list", { name: "Pending invitations" }).getByText(invitee.email).waitFor();
    await shot("teams-01-invited");
  });

  runner.step("teams: the invitee opens the emailed link signed out, signs up from it and joins", async () => {
    const message = await mail.waitFor(invitee.email, new RegExp(`^You have been invited to join ${teamName}$`));
    const link = linkIn(message);
    assert.ok(new URL(link).pathname.endsWith("/handler/team-invitation"), `link goes to the team-invitation page: ${link}`);
    await signOut();
    await page.goto(link);
    await page.getByRole("heading", { name: "Team invitation" }).waitFor();
    await page.getByRole("link", { name: "Create an account" }).click();
    await page.waitForURL((url) => url.pathname === "/handler/sign-up");
    await fillSignUp(invitee);
    // after_auth_return_to brings the new account back to the invitation.
    await page.waitForURL((url) => url.pathname === "/handler/team-invitation");
    await page.getByRole("heading", { name: `Join ${teamName}` }).waitFor();
    await shot("teams-02-invitation");
    await page.getByRole("button", { name: `Join ${teamName}` }).click();
    await page.getByRole("heading", { name: `You joined ${teamName}` }).waitFor();
    // The link is single use.
    await page.goto(link);
    await page.getByRole("alert").filter({ hasText: "This invitation has already been used." }).waitFor();
  });

  runner.step("teams: the invitee sees the team; a server grant of $update_team shows the rename form", async () => {
    await page.goto(`${origin}/handler/account-settings`);
    await teams().getByLabel("Selected team", { exact: true }).selectOption({ label: teamName });
    // The switch is async (the invitee's personal team shows first): wait for THIS team's settings.
    const settings = teams().locator(`[data-team-id="${state.teamId}"]`);
    await settings.waitFor();
    // Members are listed (team_member includes $read_members): the owner and the invitee.
    const list = settings.getByRole("list", { name: "Team members" });
    await list.getByText(invitee.email).waitFor();
    await list.getByRole("listitem").nth(1).waitFor();
    assert.equal(await list.getByRole("listitem").count(), 2);
    assert.equal(await teams().getByRole("button", { name: "Rename team" }).count(), 0, "no rename without $update_team");

    const members = await api(`/team-member-profiles?team_id=${state.teamId}`);
    const member = members.body.items.find((m) => m.user.primary_email === invitee.email);
    assert.ok(member, `the invitee is a member: ${JSON.stringify(members.body)}`);
    state.invitee.userId = member.user_id;
    const granted = await api(`/team-permissions/${state.teamId}/${member.user_id}/$update_team`, { method: "POST", body: {} });
    assert.equal(granted.status, 201, JSON.stringify(granted.body));

    await page.reload();
    await teams().getByRole("button", { name: "Rename team" }).waitFor();
    await teams().getByLabel("Team name", { exact: true }).fill(`${teamName} Society`);
    await teams().getByRole("button", { name: "Rename team" }).click();
    await teams().getByRole("status").filter({ hasText: "Team renamed." }).waitFor();
    const team = await api(`/teams/${state.teamId}`);
    assert.equal(team.body.display_name, `${teamName} Society`);
    await shot("teams-03-renamed");
  });

  return state;
}
