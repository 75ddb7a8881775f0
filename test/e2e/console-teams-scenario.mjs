/**
 * The console's Teams pages in the browser e2e: a fresh owner creates a project, creates a user
 * with the project's admin key (shown once), creates a team on the Teams page, adds the user by
 * searching, grants and revokes a team permission, sends an invitation (read from the SMTP sink)
 * and revokes it, edits metadata (an invalid JSON editor is a focused field error), renames the
 * team, checks the page at 375 px, removes the member and deletes the team after confirming.
 */
import { join } from "node:path";
import { adminApi, signUpOwnerWithProject } from "./console-owner.mjs";
import { assert, expectFocused } from "./harness.mjs";

export function defineConsoleTeamSteps(runner, { page, origin, shots, mail }) {
  const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const input = (label) => page.getByLabel(label, { exact: true });
  const stamp = Date.now().toString(36);
  const owner = { email: `teams-owner-${stamp}@example.com`, password: "teams-owner-pass-1" };
  const member = { email: `teams-member-${stamp}@example.com`, name: `Mia ${stamp}` };
  const invitee = `teams-invitee-${stamp}@example.com`;
  const teamName = `Support ${stamp}`;
  const state = { projectId: null, adminKey: null, userId: null, teamId: null };
  const toast = (text) => page.locator(".toasts").getByText(text).waitFor();

  const api = (path, options) => adminApi(origin, state)(path, options);
  const directGrants = async () =>
    (await api(`/team-permissions?team_id=${state.teamId}&user_id=${state.userId}&recursive=false`)).body.items.map((p) => p.id);

  runner.step("console teams: a new owner creates a project and (admin API) a user", async () => {
    Object.assign(state, await signUpOwnerWithProject(page, origin, { ...owner, projectName: "Team Shop" }));

    // The project's mail goes to the test's SMTP sink, so the invitation can be read.
    const routed = await api("/internal/projects/current", {
      method: "PATCH",
      body: {
        config: {
          email_config: {
            type: "standard",
            host: "127.0.0.1",
            port: mail.port,
            username: "",
            password: "",
            sender_name: "Team Shop",
            sender_email: "noreply@teamshop.localhost",
          },
        },
      },
    });
    assert.equal(routed.status, 200, JSON.stringify(routed.body));
    const created = await api("/users", {
      method: "POST",
      body: { primary_email: member.email, primary_email_verified: true, display_name: member.name },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    state.userId = created.body.id;
  });

  runner.step("console teams: the Teams page lists nothing, then creates a team", async () => {
    await page.goto(`${origin}/projects/${state.projectId}`);
    await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Teams" }).click();
    await page.getByRole("heading", { name: "Teams · Team Shop" }).waitFor();
    await page.getByText("No teams yet.").waitFor();
    // An empty name is a field error, and takes focus (the creator is picked by search: console-polish-scenario.mjs).
    await page.getByRole("button", { name: "Create team" }).click();
    await page.getByText("Please enter a team name.").waitFor();
    assert.equal(await input("Display name").getAttribute("aria-invalid"), "true");
    await expectFocused(input("Display name"), "focus on the first error");
    await input("Display name").fill(teamName);
    await page.getByRole("button", { name: "Create team" }).click();
    await toast(`Team ${teamName} created.`);
    const link = page.getByRole("table").getByRole("link", { name: teamName });
    await link.waitFor();
    await shot("console-teams-01-list");
    await link.click();
    await page.getByRole("heading", { name: `Team · ${teamName}` }).waitFor();
    state.teamId = new URL(page.url()).pathname.split("/").pop();
    await page.getByText("No members yet.").waitFor();
  });

  runner.step("console teams: the owner finds the user, adds them, grants and revokes a permission", async () => {
    await input("Find a user by email, name or id").fill(member.email);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page
      .getByRole("list", { name: "Matching users" })
      .getByRole("button", { name: `Add ${member.name}` })
      .click();
    await toast("Member added.");
    const item = page.getByRole("list", { name: "Team members" }).getByRole("listitem").filter({ hasText: member.email });
    await item.getByText(member.name, { exact: true }).waitFor();
    await page.getByRole("list", { name: "Matching users" }).getByText("member", { exact: true }).waitFor();

    await item.getByLabel(`Permission to grant to ${member.name}`).selectOption("$update_team");
    await item.getByRole("button", { name: `Grant to ${member.name}` }).click();
    await toast(`$update_team granted to ${member.name}.`);
    const chips = item.getByRole("list", { name: `Team permissions of ${member.name}` });
    await chips.getByText("$update_team").waitFor();
    assert.ok((await directGrants()).includes("$update_team"), "the grant reached the API");
    await shot("console-teams-02-member");

    await chips.getByRole("button", { name: `Revoke $update_team from ${member.name}` }).click();
    await toast(`$update_team revoked from ${member.name}.`);
    await chips.getByText("$update_team").waitFor({ state: "detached" });
    assert.ok(!(await directGrants()).includes("$update_team"), "the revoke reached the API");
  });

  runner.step("console teams: an invitation is sent (mail arrives) and revoked after confirming", async () => {
    // The project has no trusted domain: the invitation page is the project's hosted one (issue 28).
    const projectId = new URL(page.url()).pathname.split("/")[2];
    assert.equal(await input("Invitation page URL").inputValue(), `${origin}/p/${projectId}/handler/team-invitation`);
    // An empty page URL is refused on the field; the owner may type their app's page (localhost is allowed in development).
    await input("Invitation page URL").fill("");
    await input("Email to invite").fill(invitee);
    await page.getByRole("button", { name: "Send invitation" }).click();
    await page.getByText("Please enter the URL of your app's team-invitation page.").waitFor();
    await expectFocused(input("Invitation page URL"));
    await input("Invitation page URL").fill("http://localhost:3000/handler/team-invitation");
    await page.getByRole("button", { name: "Send invitation" }).click();
    await toast(`Invitation sent to ${invitee}.`);
    const open = page.getByRole("list", { name: "Open invitations" });
    await open.getByText(invitee, { exact: true }).waitFor();
    const message = await mail.waitFor(invitee, new RegExp(`invited to join ${teamName}`));
    assert.match(message.text, /http:\/\/localhost:3000\/handler\/team-invitation\?code=/);

    await open.getByRole("button", { name: `Revoke the invitation to ${invitee}` }).click();
    const dialog = page.getByRole("dialog", { name: `Revoke the invitation to ${invitee}?` });
    await dialog.getByText("can no longer join").waitFor();
    await dialog.getByRole("button", { name: "Revoke invitation" }).click();
    await toast(`Invitation to ${invitee} revoked.`);
    await page.getByText("No open invitations.").waitFor();
    assert.equal((await api(`/team-invitations?team_id=${state.teamId}`)).body.items.length, 0);
  });

  runner.step("console teams: metadata is validated and saved; the team is renamed", async () => {
    await input("Server metadata").fill("{ tier: 2 }");
    await input("Client metadata").fill('{"color": "teal"}');
    await page.getByRole("button", { name: "Save metadata" }).click();
    await page.getByText(/^Not valid JSON/).waitFor();
    assert.equal(await input("Server metadata").getAttribute("aria-invalid"), "true");
    await expectFocused(input("Server metadata"));
    await input("Server metadata").fill('{"tier": 2}');
    await page.getByRole("button", { name: "Save metadata" }).click();
    await toast("Metadata saved.");
    const team = (await api(`/teams/${state.teamId}`)).body;
    assert.deepEqual(team.server_metadata, { tier: 2 });
    assert.deepEqual(team.client_metadata, { color: "teal" });
    assert.equal(team.client_read_only_metadata, null);

    await input("Team name").fill(`${teamName} Crew`);
    await page.getByRole("button", { name: "Rename team" }).click();
    await toast(`Team renamed to ${teamName} Crew.`);
    await page.getByRole("heading", { name: `Team · ${teamName} Crew` }).waitFor();
  });

  runner.step("console teams: the team page fits 375 px; removing a member asks first", async () => {
    const size = page.viewportSize();
    await page.setViewportSize({ width: 375, height: 800 });
    // The team page itself (the console frame's header is the layout's) stays within 375 px.
    const wide = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      const sticksOut = (el) => el.getBoundingClientRect().right > width + 1;
      return [...document.querySelectorAll(".project-page *")]
        .filter((el) => sticksOut(el) && !(el.parentElement && sticksOut(el.parentElement)))
        .map((el) => `${el.tagName.toLowerCase()}.${el.className} (${Math.round(el.getBoundingClientRect().right)}px)`);
    });
    await shot("console-teams-03-mobile");
    await page.setViewportSize(size);
    assert.deepEqual(wide, [], "nothing on the team page is wider than 375 px");

    const item = page.getByRole("list", { name: "Team members" }).getByRole("listitem").filter({ hasText: member.email });
    await item.getByRole("button", { name: `Remove ${member.name} from the team` }).click();
    const dialog = page.getByRole("dialog", { name: `Remove ${member.name} from ${teamName} Crew?` });
    await dialog.getByText("They lose access to the team").waitFor();
    await dialog.getByRole("button", { name: "Remove member" }).click();
    await toast(`${member.name} removed from the team.`);
    await page.getByText("No members yet.").waitFor();
  });

  runner.step("console teams: deleting the team says members lose access, then lands on the list", async () => {
    await page.getByRole("button", { name: "Delete team" }).click();
    const dialog = page.getByRole("dialog", { name: `Delete ${teamName} Crew?` });
    await dialog.getByText("lose access to the team").waitFor();
    await shot("console-teams-04-delete");
    await dialog.getByRole("button", { name: "Delete team" }).click();
    await page.waitForURL((url) => url.pathname === `/projects/${state.projectId}/teams`);
    await toast(`Team ${teamName} Crew deleted.`);
    await page.getByText("No teams yet.").waitFor();
    assert.equal((await api(`/teams/${state.teamId}`)).status, 404);
  });
}
