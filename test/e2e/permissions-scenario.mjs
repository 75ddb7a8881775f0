/**
 * Permission definitions in the browser e2e: a fresh owner creates a project, opens its
 * permissions page (system and default permissions listed), creates team and project
 * permissions (with per-field errors for a reserved and a taken id) and deletes one.
 */
import { join } from "node:path";
import { assert } from "./harness.mjs";

export function definePermissionSteps(runner, { page, origin, shots }) {
  const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const input = (label) => page.getByLabel(label, { exact: true });
  const email = `perm-owner-${Date.now().toString(36)}@example.com`;
  const password = "permission-owner-1";
  const teamTable = () => page.getByRole("region", { name: "Team permissions" });
  const projectTable = () => page.getByRole("region", { name: "Project permissions" });

  runner.step("permissions: a new owner opens a project's permissions page", async () => {
    await page.goto(`${origin}/handler/sign-out`);
    await page.waitForURL((url) => url.pathname === "/handler/sign-in" || url.pathname === "/");
    await page.goto(`${origin}/handler/sign-up`);
    await input("Email").fill(email);
    await input("Password").fill(password);
    await input("Repeat password").fill(password);
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/handler/account-settings");
    await page.goto(`${origin}/projects`);
    await input("Project name").fill("Perm Shop");
    await page.getByRole("button", { name: "Create project" }).click();
    await page.getByRole("button", { name: "I have saved my keys" }).click();
    await page.getByRole("list", { name: "Your projects" }).getByRole("link", { name: "Permissions" }).click();
    await page.getByRole("heading", { name: "Permissions · Perm Shop" }).waitFor();
    await teamTable().getByRole("cell", { name: "$update_team", exact: true }).waitFor();
    await teamTable().getByRole("cell", { name: "team_admin", exact: true }).waitFor();
    await projectTable().getByText("None yet.").waitFor();
  });

  runner.step("permissions: reserved and taken ids are field errors; create and delete", async () => {
    await input("Id").fill("$mine");
    await page.getByRole("button", { name: "Create permission" }).click();
    await page.getByText("Ids starting with $ are reserved").waitFor();
    assert.equal(await input("Id").getAttribute("aria-invalid"), "true");

    await input("Id").fill("editor");
    await input("Description (optional)").fill("Edits the team's documents");
    await page.getByRole("group", { name: "Contains" }).getByRole("checkbox", { name: "$update_team" }).check();
    await page.getByRole("button", { name: "Create permission" }).click();
    const row = teamTable()
      .getByRole("row")
      .filter({ has: page.getByRole("cell", { name: "editor", exact: true }) });
    await row.getByText("Edits the team's documents").waitFor();
    await row.getByRole("cell", { name: "$update_team", exact: true }).waitFor();
    assert.equal(await input("Id").inputValue(), "");

    await input("Id").fill("editor");
    await page.getByLabel("Scope").selectOption("project");
    await page.getByRole("button", { name: "Create permission" }).click();
    await page.getByText("This id is already taken").waitFor();
    assert.equal(await input("Id").getAttribute("aria-invalid"), "true");

    await input("Id").fill("read:docs");
    await page.getByRole("button", { name: "Create permission" }).click();
    await projectTable().getByRole("cell", { name: "read:docs", exact: true }).waitFor();
    await shot("20-permission-definitions");

    await row.getByRole("button", { name: "Edit editor" }).click();
    const edit = page.getByRole("dialog", { name: "Edit editor" });
    await edit.getByLabel("Description").fill("Edits and reviews documents");
    await edit.getByRole("checkbox", { name: "$read_members" }).check();
    await edit.getByRole("button", { name: "Save changes" }).click();
    await row.getByText("Edits and reviews documents").waitFor();
    await row
      .getByRole("cell", { name: "$read_members, $update_team" })
      .or(row.getByRole("cell", { name: "$update_team, $read_members" }))
      .waitFor();

    await row.getByRole("button", { name: "Delete editor" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete the permission editor?" });
    await confirm.getByText("Every grant of it is removed").waitFor();
    await confirm.getByRole("button", { name: "Delete permission" }).click();
    await row.waitFor({ state: "detached" });
    assert.equal(
      await teamTable()
        .getByRole("button", { name: /Delete \$/ })
        .count(),
      0,
      "system permissions cannot be deleted",
    );
  });

  runner.step("permissions: the default sets are saved and survive a reload", async () => {
    const defaults = page.getByRole("form", { name: "Default permissions" });
    const user = defaults.getByRole("group", { name: "User" });
    await user.getByRole("checkbox", { name: "read:docs" }).check();
    const member = defaults.getByRole("group", { name: "Team member" });
    await member.getByRole("checkbox", { name: "team_member" }).uncheck();
    await defaults.getByRole("button", { name: "Save default permissions" }).click();
    await page.locator(".toast").filter({ hasText: "Default permissions saved." }).waitFor();
    await page.reload();
    await page.getByRole("heading", { name: "Permissions · Perm Shop" }).waitFor();
    const again = page.getByRole("form", { name: "Default permissions" });
    assert.equal(await again.getByRole("group", { name: "User" }).getByRole("checkbox", { name: "read:docs" }).isChecked(), true);
    assert.equal(await again.getByRole("group", { name: "Team member" }).getByRole("checkbox", { name: "team_member" }).isChecked(), false);
    assert.equal(await again.getByRole("group", { name: "Team creator" }).getByRole("checkbox", { name: "team_admin" }).isChecked(), true);
  });
}
