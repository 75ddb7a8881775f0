/**
 * The console's config pages in the browser e2e: a fresh owner creates a project, adds a trusted
 * domain (an invalid one first is a focused field error), turns on passkeys and adds GitHub with
 * its own client id and secret (the secret is never shown: "•••• stored", also after a reload),
 * adds Microsoft with own keys and a tenant id (kept after a reload, an unchanged save and in the
 * admin API), creates a key set (its keys shown once) and revokes it after confirming, flips production mode
 * (the checks and the API's refusal while localhost is allowed, then on), checks the four pages
 * at 375 px, and deletes the project by typing its name.
 */
import { join } from "node:path";
import { adminApi, signUpOwnerWithProject } from "./console-owner.mjs";
import { assert, expectFocused } from "./harness.mjs";

export function defineConsoleConfigSteps(runner, { page, origin, shots }) {
  const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const input = (label) => page.getByLabel(label, { exact: true });
  const stamp = Date.now().toString(36);
  const owner = { email: `config-owner-${stamp}@example.com`, password: "config-owner-pass-1" };
  const projectName = `Config Shop ${stamp}`;
  const githubSecret = `gh-secret-${stamp}-do-not-show`;
  const state = { projectId: null };
  const toast = (text) => page.locator(".toasts").getByText(text).waitFor();
  const nav = (label) => page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: label, exact: true });
  const openPage = async (label) => {
    await nav(label).click();
    await page.getByRole("heading", { level: 1, name: `${label} · ${projectName}` }).waitFor();
    assert.equal(await nav(label).getAttribute("aria-current"), "page");
  };

  runner.step("console config: a new owner creates a project and opens its Domains page", async () => {
    Object.assign(state, await signUpOwnerWithProject(page, origin, { ...owner, projectName }));
    await page.goto(`${origin}/projects/${state.projectId}`);
    await openPage("Domains");
    await page.getByText("No trusted domain yet").waitFor();
  });

  runner.step("console config: an invalid domain is a focused field error; a valid one is trusted", async () => {
    await input("Domain URL").fill("not a url");
    await page.getByRole("button", { name: "Add domain" }).click();
    await page.getByText("Not a valid URL.").waitFor();
    assert.equal(await input("Domain URL").getAttribute("aria-invalid"), "true");
    await expectFocused(input("Domain URL"), "the invalid field has focus");

    await input("Domain URL").fill("https://app.example.com");
    await page.getByRole("button", { name: "Add domain" }).click();
    await toast("https://app.example.com is trusted.");
    const list = page.getByRole("list", { name: "Trusted domains" });
    await list.getByText("https://app.example.com", { exact: true }).waitFor();
    await list.getByText("handler /handler").waitFor();
    assert.equal(await input("Domain URL").inputValue(), "", "the add form is cleared");
    await shot("console-config-01-domains");
  });

  runner.step("console config: passkeys on, GitHub with own keys; the secret is never shown", async () => {
    await openPage("Sign-in methods");
    const passkeys = page.getByRole("checkbox", { name: "Passkeys" });
    assert.equal(await passkeys.isChecked(), false);
    // Toggles are controlled by the saved config: click, then the toast says it is stored.
    await passkeys.click();
    await toast("Passkeys turned on.");

    await page.getByLabel("Provider", { exact: true }).selectOption("github");
    await page.getByRole("radio", { name: "My own client id and secret" }).check();
    // Own keys need both values: the empty client id is the focused error.
    await page.getByRole("button", { name: "Add provider" }).click();
    await page.getByText("Enter the client id").waitFor();
    assert.equal(await input("Client id").getAttribute("aria-invalid"), "true");
    await input("Client id").fill(`gh-client-${stamp}`);
    await input("Client secret").fill(githubSecret);
    await page.getByRole("button", { name: "Add provider" }).click();
    await toast("GitHub added.");
    const providers = page.getByRole("list", { name: "Configured providers" });
    const github = providers.getByRole("listitem").filter({ hasText: "GitHub" });
    await github.getByText(`gh-client-${stamp}`, { exact: true }).waitFor();
    await github.getByText("•••• stored", { exact: true }).waitFor();
    assert.ok(!(await page.content()).includes(githubSecret), "the secret is not in the page");

    await page.reload();
    await page.getByRole("heading", { level: 1, name: `Sign-in methods · ${projectName}` }).waitFor();
    assert.equal(await page.getByRole("checkbox", { name: "Passkeys" }).isChecked(), true, "passkeys stay on after a reload");
    await github.getByText("•••• stored", { exact: true }).waitFor();
    await github.getByRole("button", { name: "Edit GitHub" }).click();
    assert.equal(await input("Client secret").inputValue(), "");
    assert.equal(await input("Client secret").getAttribute("placeholder"), "•••• stored");
    assert.equal(await input("Client id").inputValue(), `gh-client-${stamp}`);
    assert.ok(!(await page.content()).includes(githubSecret), "the secret is not in the page after a reload");
    await shot("console-config-02-sign-in-methods");
    await page.getByRole("button", { name: "Cancel" }).click();
  });

  runner.step("console config: Microsoft with own keys and a tenant id; the tenant id is kept", async () => {
    const tenant = "72f988bf-86f1-41af-91ab-2d7cd011db47";
    await page.getByLabel("Provider", { exact: true }).selectOption("microsoft");
    assert.equal(await input("Tenant id").count(), 0, "no tenant field with shared keys");
    await page.getByRole("radio", { name: "My own client id and secret" }).check();
    await input("Client id").fill(`ms-client-${stamp}`);
    await input("Client secret").fill(`ms-secret-${stamp}`);
    // A tenant is "common", "organizations", "consumers" or a GUID: anything else is a focused error.
    await input("Tenant id").fill("my company");
    await page.getByRole("button", { name: "Add provider" }).click();
    await page.getByText("Use “common”, “organizations”, “consumers” or a tenant GUID").waitFor();
    assert.equal(await input("Tenant id").getAttribute("aria-invalid"), "true");
    await expectFocused(input("Tenant id"), "the invalid tenant id has focus");
    await input("Tenant id").fill(tenant);
    await page.getByRole("button", { name: "Add provider" }).click();
    await toast("Microsoft added.");
    const microsoft = page.getByRole("list", { name: "Configured providers" }).getByRole("listitem").filter({ hasText: "Microsoft" });
    await microsoft.getByText(tenant, { exact: true }).waitFor();

    await page.reload();
    await page.getByRole("heading", { level: 1, name: `Sign-in methods · ${projectName}` }).waitFor();
    await microsoft.getByText(tenant, { exact: true }).waitFor();
    await microsoft.getByRole("button", { name: "Edit Microsoft" }).click();
    const edit = page.getByRole("form", { name: "Edit Microsoft" });
    assert.equal(await edit.getByLabel("Tenant id", { exact: true }).inputValue(), tenant, "the tenant id is kept after a reload");
    // Saving without touching it (and without re-entering the secret) keeps the tenant id.
    await edit.getByRole("button", { name: "Save Microsoft" }).click();
    await toast("Microsoft saved.");
    await microsoft.getByText(tenant, { exact: true }).waitFor();

    const { status, body } = await adminApi(origin, state)("/internal/projects/current");
    assert.equal(status, 200);
    const stored = body.config.oauth_providers.find((p) => p.id === "microsoft");
    assert.equal(stored.type, "standard");
    assert.equal(stored.client_id, `ms-client-${stamp}`);
    assert.equal(stored.microsoft_tenant_id, tenant, "the API has the tenant id");
    assert.equal(stored.has_client_secret, true, "the secret stayed stored");
    assert.equal(stored.client_secret, undefined, "the secret is never read back");
    const github = body.config.oauth_providers.find((p) => p.id === "github");
    assert.equal(github.microsoft_tenant_id, undefined, "other providers have no tenant id");
    await shot("console-config-02b-microsoft-tenant");
  });

  runner.step("console config: create a key set (keys shown once), revoke it after confirming", async () => {
    await openPage("Keys");
    await input("Description").fill("CI server");
    await page.getByRole("button", { name: "Create key set" }).click();
    await page.getByRole("heading", { name: "Keys of “CI server”" }).waitFor();
    const secret = (await page.getByTestId("new-secret-server-key").textContent()).trim();
    const publishable = (await page.getByTestId("new-publishable-client-key").textContent()).trim();
    assert.ok(secret.length > 20 && publishable.length > 20, "full key values are shown once");
    assert.equal(await page.getByTestId("new-super-secret-admin-key").count(), 0, "no admin key was asked for");
    await shot("console-config-03-new-key-set");
    await page.getByRole("button", { name: "I have saved these keys" }).click();
    assert.equal(await page.getByTestId("new-secret-server-key").count(), 0, "the keys are gone once dismissed");
    assert.ok(!(await page.content()).includes(secret), "the full secret is not shown again");

    const row = page.getByRole("row").filter({ hasText: "CI server" });
    await row.getByText(`…${secret.slice(-4)}`, { exact: true }).waitFor();
    await row.getByText("valid", { exact: true }).waitFor();
    await row.getByRole("button", { name: "Revoke CI server" }).click();
    const dialog = page.getByRole("dialog", { name: "Revoke the key set “CI server”?" });
    await dialog.getByText("stops working at once").waitFor();
    await dialog.getByRole("button", { name: "Revoke key set" }).click();
    await toast("Key set “CI server” revoked.");
    await row.getByText("revoked", { exact: true }).waitFor();
    assert.equal(await row.getByRole("button", { name: "Revoke CI server" }).count(), 0);
  });

  runner.step("console config: production mode shows its checks, is refused with localhost, then turns on", async () => {
    await openPage("Settings");
    const checks = page.getByRole("list").filter({ hasText: "Localhost is not allowed in production mode" });
    await checks.waitFor();
    const production = page.getByRole("checkbox", { name: "Production mode" });
    await production.click();
    await page.getByRole("alert").filter({ hasText: "Localhost is not allowed in production mode" }).waitFor();
    assert.equal(await production.isChecked(), false, "the API refused production mode");
    await shot("console-config-04-production-checks");

    await openPage("Domains");
    await page.getByRole("checkbox", { name: "Allow localhost" }).click();
    await toast("Localhost no longer allowed.");
    await openPage("Settings");
    // A development leftover blocks it too, with a link to the page that fixes it (issue 25).
    const testMode = page.getByRole("listitem").filter({ hasText: "Payments are in test mode" });
    await testMode.getByRole("link", { name: "Fix on the Payments page" }).click();
    await page.getByRole("checkbox", { name: "Test mode" }).click();
    await toast("Live mode is on.");
    await openPage("Settings");
    await page.getByText("Nothing blocks production mode.").waitFor();
    await page.getByRole("checkbox", { name: "Production mode" }).click();
    await toast("Production mode is on.");
    await page.getByRole("navigation", { name: "Project" }).getByText("production", { exact: true }).waitFor();
  });

  runner.step("console config: a rate limit is checked, saved and still there after a reload", async () => {
    await input("Sign in per IP").fill("lots");
    await page.getByRole("button", { name: "Save rate limits" }).click();
    await page.getByText("Use count/seconds, like 30/60, or 0.").waitFor();
    assert.equal(await input("Sign in per IP").getAttribute("aria-invalid"), "true");
    await input("Sign in per IP").fill("50/60");
    await page.getByRole("button", { name: "Save rate limits" }).click();
    await toast("Rate limits saved.");
    await page.reload();
    await page.getByRole("heading", { level: 1, name: `Settings · ${projectName}` }).waitFor();
    assert.equal(await input("Sign in per IP").inputValue(), "50/60");
    assert.equal(await input("Sign up per IP").inputValue(), "", "other rules keep the default");
  });

  runner.step("console config: the config pages fit 375 px", async () => {
    const size = page.viewportSize();
    await page.setViewportSize({ width: 375, height: 800 });
    try {
      for (const label of ["Sign-in methods", "Domains", "Keys", "Settings"]) {
        await openPage(label);
        // The page must not scroll sideways (a wide table scrolls inside its own box instead).
        const { overflow, wide } = await page.evaluate(() => {
          const width = document.documentElement.clientWidth;
          const right = (el) => el.getBoundingClientRect().right;
          const all = [...document.querySelectorAll("body *")];
          // The innermost elements that stick out, to name them when the check fails.
          const wide = all
            .filter((el) => right(el) > width + 1 && ![...el.children].some((c) => right(c) > width + 1))
            .slice(0, 5)
            .map((el) => `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent ?? "").slice(0, 40)}"`);
          return { overflow: document.documentElement.scrollWidth - width, wide };
        });
        assert.ok(overflow <= 0, `${label}: no horizontal page scroll at 375 px (overflow ${overflow}px: ${wide.join("; ")})`);
      }
      await shot("console-config-05-settings-mobile");
    } finally {
      await page.setViewportSize(size);
    }
  });

  runner.step("console config: delete the project by typing its name", async () => {
    await page.getByRole("button", { name: "Delete project" }).click();
    const dialog = page.getByRole("dialog", { name: `Delete ${projectName}?` });
    const confirm = dialog.getByRole("button", { name: "Delete project" });
    assert.equal(await confirm.isDisabled(), true, "disabled until the name is typed");
    await dialog.getByLabel(`Type ${projectName} to confirm`).fill(projectName);
    await confirm.click();
    await page.waitForURL((url) => url.pathname === "/projects");
    await page.getByRole("button", { name: "Create project" }).waitFor();
    assert.equal(await page.getByRole("link", { name: projectName }).count(), 0, "the project is gone");
  });
}
