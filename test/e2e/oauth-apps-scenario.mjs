/**
 * The console's OAuth apps page in the browser e2e (issue 30): the issuer and discovery URL on the
 * API's origin; registering an app, with the console's and the API's field errors (aria-invalid)
 * first; its secret shown once with an "I have copied" confirmation; rotating it (a new secret, shown
 * once); editing; deleting behind a confirmation; the provider switches and custom scopes saved as
 * config, and open registration answering at the endpoint the page shows. axe checks the page.
 */
import { checkPage } from "./a11y-scenario.mjs";
import { adminApi, signUpOwnerWithProject } from "./console-owner.mjs";
import { assert } from "./harness.mjs";

export function defineOAuthAppsSteps(runner, { page, origin, shots }) {
  const stamp = Date.now().toString(36);
  const name = `Notes Sync ${stamp}`;
  let project = null;
  let api = null;
  let firstSecret = "";
  const shot = (file) => page.screenshot({ path: `${shots}/${file}.png`, fullPage: true });
  const form = () => page.getByRole("form", { name: "Register an app" });

  runner.step("oauth apps: the page shows the issuer, and registering checks each field before the secret is shown once", async () => {
    project = await signUpOwnerWithProject(page, origin, {
      email: `oauth-apps-owner-${stamp}@example.com`,
      password: "oauth-apps-owner-pass-1",
      projectName: `Apps Shop ${stamp}`,
    });
    api = adminApi(origin, project);
    await page.goto(`${origin}/projects/${project.projectId}/oauth-apps`);
    await page.getByRole("heading", { name: `OAuth apps · Apps Shop ${stamp}` }).waitFor();
    const issuer = `${origin}/api/v1/projects/${project.projectId}`;
    assert.equal((await page.getByTestId("oauth-issuer").textContent())?.trim(), issuer);
    assert.equal((await page.getByTestId("oauth-discovery-url").textContent())?.trim(), `${issuer}/.well-known/openid-configuration`);
    await page.getByRole("button", { name: "Copy Issuer" }).waitFor();
    await page.getByText("No app yet.").waitFor();

    // The console's own checks: nothing filled in.
    await form().getByRole("button", { name: "Register app" }).click();
    assert.equal(await form().getByLabel("Name", { exact: true }).getAttribute("aria-invalid"), "true");
    assert.equal(await form().getByLabel("Redirect URIs").getAttribute("aria-invalid"), "true");
    // The API's rule, on its field: http is for loopback hosts only.
    await form().getByLabel("Name", { exact: true }).fill(name);
    await form().getByLabel("Redirect URIs").fill("http://notes.example/callback");
    await form().getByRole("button", { name: "Register app" }).click();
    await form()
      .getByText(/only loopback hosts/)
      .waitFor();
    assert.equal(await form().getByLabel("Redirect URIs").getAttribute("aria-invalid"), "true");
    assert.equal(await form().getByLabel("Name", { exact: true }).getAttribute("aria-invalid"), null);
    assert.equal((await api("/internal/oauth-clients")).body.items.length, 0);

    await form().getByLabel("Redirect URIs").fill("https://notes.example/callback\nhttp://127.0.0.1:8765/callback");
    await form().getByRole("button", { name: "Register app" }).click();
    firstSecret = (await page.getByTestId("oauth-client-secret").textContent())?.trim() ?? "";
    assert.match(firstSecret, /^dmcs_[0-9a-z]{43}$/);
    const clientId = (await page.getByTestId("oauth-client-id").textContent())?.trim() ?? "";
    assert.match(clientId, /^dmc_/);
    const [stored] = (await api("/internal/oauth-clients")).body.items;
    assert.equal(stored.client_id, clientId);
    assert.equal(stored.secret_prefix, firstSecret.slice(0, 9));
    assert.deepEqual(stored.redirect_uris, ["https://notes.example/callback", "http://127.0.0.1:8765/callback"]);
    assert.ok(!JSON.stringify(stored).includes(firstSecret), "the API never answers the secret again");
    // Done waits for the confirmation that the secret was copied.
    const done = page.getByRole("button", { name: "Done" });
    assert.equal(await done.isDisabled(), true);
    await shot("oauth-apps-secret");
    const problems = await checkPage(page, "oauth-apps with a new secret");
    assert.deepEqual(problems, []);
    await page.getByLabel("I have copied the secret").check();
    await done.click();
    assert.equal(await page.getByTestId("oauth-client-secret").count(), 0);
    await page.getByRole("row").filter({ hasText: name }).waitFor();
  });

  runner.step("oauth apps: rotating shows a new secret once; edit and delete change the registry", async () => {
    await page.getByRole("button", { name: `Rotate secret of ${name}` }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Rotate secret" }).click();
    const rotated = (await page.getByTestId("oauth-client-secret").textContent())?.trim() ?? "";
    assert.match(rotated, /^dmcs_/);
    assert.notEqual(rotated, firstSecret);
    assert.equal((await api("/internal/oauth-clients")).body.items[0].secret_prefix, rotated.slice(0, 9));
    await page.getByLabel("I have copied the secret").check();
    await page.getByRole("button", { name: "Done" }).click();

    await page.getByRole("button", { name: `Edit ${name}` }).click();
    const edit = page.getByRole("form", { name: `Edit ${name}` });
    await edit.getByLabel("Name", { exact: true }).fill(`${name} v2`);
    await edit.getByLabel("Privacy policy (optional)").fill("http://notes.example/privacy");
    await edit.getByRole("button", { name: "Save app" }).click();
    assert.equal(await edit.getByLabel("Privacy policy (optional)").getAttribute("aria-invalid"), "true");
    await edit.getByLabel("Privacy policy (optional)").fill("https://notes.example/privacy");
    await edit.getByRole("button", { name: "Save app" }).click();
    await page
      .getByRole("row")
      .filter({ hasText: `${name} v2` })
      .waitFor();
    assert.equal((await api("/internal/oauth-clients")).body.items[0].policy_uri, "https://notes.example/privacy");

    await page.getByRole("button", { name: `Delete ${name} v2` }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText(/refresh tokens stop working at once/).waitFor();
    await dialog.getByRole("button", { name: "Delete app" }).click();
    await page.getByText("No app yet.").waitFor();
    assert.deepEqual((await api("/internal/oauth-clients")).body.items, []);
  });

  runner.step("oauth apps: open registration and a custom scope are saved as config; the registration endpoint answers", async () => {
    // The switch saves at once and shows the saved state.
    await page.getByLabel("Open registration (RFC 7591)").click();
    await page.getByRole("status").filter({ hasText: "Open registration turned on." }).waitFor();
    assert.equal(await page.getByLabel("Open registration (RFC 7591)").isChecked(), true);
    const registration = page.getByTestId("oauth-registration-url");
    await registration.waitFor();
    const endpoint = (await registration.textContent())?.trim() ?? "";
    assert.equal(endpoint, `${origin}/api/v1/projects/${project.projectId}/oauth/register`);

    await page.getByRole("button", { name: "Add a scope" }).click();
    await page.getByRole("button", { name: "Save scopes" }).click();
    assert.equal(await page.locator("#oauth-scope-name-0").getAttribute("aria-invalid"), "true");
    await page.locator("#oauth-scope-name-0").fill("notes:read");
    await page.locator("#oauth-scope-description-0").fill("Read your notes");
    await page.getByRole("button", { name: "Save scopes" }).click();
    await page.getByRole("status").filter({ hasText: "Custom scopes saved." }).waitFor();
    const config = JSON.parse((await api("/internal/config")).body.config_string);
    assert.equal(config.doorman.oauthProvider.dynamicRegistration, true);
    assert.deepEqual(config.doorman.oauthProvider.scopes, { "notes:read": { description: "Read your notes" } });
    // The register form now offers the custom scope.
    await form().getByLabel("Every scope the project offers").uncheck();
    await form().getByRole("checkbox", { name: "notes:read" }).waitFor();

    const res = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "E2E agent",
        redirect_uris: ["http://127.0.0.1:9999/cb"],
        token_endpoint_auth_method: "none",
        scope: "notes:read",
      }),
    });
    assert.equal(res.status, 201);
    const registered = await res.json();
    assert.equal(registered.scope, "notes:read");
    await page.reload();
    await page.getByRole("row").filter({ hasText: "E2E agent" }).getByText("Registered itself").waitFor();
  });
}
