/**
 * The console polish of issue 28 in the browser: event filters by area (every type, one shared
 * list), a config change's keys, the device ("Chrome on Linux") and "local" address of an event,
 * the Users table at 375 px (rows as cards, measured), webhook secret reveal and rotate, the team
 * creator picked by search, Impersonate opening the project's app signed in as the user (a small
 * app built from the SDK, served by the browser on the trusted domain), the console's navigation
 * in the server's HTML, and axe on each of these pages at 1,100 and 375 px.
 */
import { createServer } from "node:http";
import { resolve } from "node:path";
import { build } from "esbuild";
import { checkPage } from "./a11y-scenario.mjs";
import { adminApi, signUpOwnerWithProject } from "./console-owner.mjs";
import { assert } from "./harness.mjs";

const root = resolve(import.meta.dirname, "../..");
/**
 * The project's app: a small local server (a loopback origin, so Chromium lets it call the local API;
 * 127.0.0.1, not localhost, so its cookies stay apart from the console's).
 */
async function startApp(script) {
  const page =
    '<!doctype html><html lang="en"><head><title>Polish app</title></head><body><div id="root"></div><script src="/app.js"></script></body></html>';
  const server = createServer((req, res) => {
    const js = req.url === "/app.js";
    res.writeHead(200, { "content-type": js ? "text/javascript" : "text/html" });
    res.end(js ? script : page);
  });
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    stop: () =>
      new Promise((done) => {
        // The browser keeps connections alive: end them, or close() waits for them.
        server.closeAllConnections();
        server.close(done);
      }),
  };
}

/** A tiny app of the project: the SDK's handler pages under /handler, and a home page naming the signed-in user. */
async function appBundle(origin, projectId) {
  const entry = `
    import { StackClientApp } from "./sdk/src/index.ts";
    import { StackHandler, StackProvider, useUser } from "./sdk/src/react/index.ts";
    import { createRoot } from "react-dom/client";
    const app = new StackClientApp({
      projectId: ${JSON.stringify(projectId)},
      baseUrl: ${JSON.stringify(origin)},
      tokenStore: "cookie",
      urls: { afterSignIn: "/home" },
    });
    function Home() {
      const user = useUser();
      return <main><h1>Polish app</h1><p data-testid="who">{user ? "Signed in as " + user.primaryEmail : "Signed out"}</p></main>;
    }
    const path = location.pathname;
    createRoot(document.getElementById("root")).render(
      <StackProvider app={app}>{path.startsWith("/handler") ? <StackHandler location={path + location.search} /> : <Home />}</StackProvider>,
    );`;
  const out = await build({
    stdin: { contents: entry, resolveDir: root, loader: "tsx" },
    bundle: true,
    format: "iife",
    jsx: "automatic",
    write: false,
    logLevel: "silent",
    define: { "process.env.NODE_ENV": '"production"' },
  });
  return out.outputFiles[0].text;
}

export function defineConsolePolishSteps(runner, { page, origin, shots }) {
  const stamp = Date.now().toString(36);
  const projectName = `Polish Shop ${stamp}`;
  const member = { email: `polish-member-${stamp}@example.com`, name: `Polly ${stamp}` };
  let project = null;
  let api = null;
  let userId = "";
  let app = null;
  const teamName = `Polish team ${stamp}`;
  const input = (label) => page.getByLabel(label, { exact: true });
  const toast = (text) => page.locator(".toast").filter({ hasText: text }).first().waitFor();
  const shot = (name) => page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });

  runner.step("polish: setup: an owner, a project with a user and a trusted domain", async () => {
    project = await signUpOwnerWithProject(page, origin, {
      email: `polish-owner-${stamp}@example.com`,
      password: "polish-owner-pass-1",
      projectName,
    });
    api = adminApi(origin, project);
    const created = await api("/users", {
      method: "POST",
      body: { primary_email: member.email, primary_email_verified: true, display_name: member.name },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    userId = created.body.id;
    app = await startApp(await appBundle(origin, project.projectId));
    const patched = await api("/internal/projects/current", {
      method: "PATCH",
      body: { config: { domains: [{ domain: app.url, handler_path: "/handler" }] } },
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
  });

  runner.step("polish: the team creator is picked by searching the users (a combobox)", async () => {
    await page.goto(`${origin}/projects/${project.projectId}/teams`);
    await page.getByRole("heading", { name: `Teams · ${projectName}` }).waitFor();
    const box = page.getByRole("combobox", { name: "Creator (optional)" });
    await box.fill(`polish-member-${stamp}`);
    const option = page.getByRole("option", { name: new RegExp(member.name) });
    await option.waitFor();
    assert.equal(await box.getAttribute("aria-expanded"), "true");
    assert.deepEqual(await checkPage(page, "teams (creator search open)"), []);
    await box.press("ArrowDown");
    await box.press("Enter");
    await page.getByRole("button", { name: `Change the user (${member.name})` }).waitFor();
    await input("Display name").fill(teamName);
    await page.getByRole("button", { name: "Create team" }).click();
    await toast(`Team ${teamName} created.`);
    const teams = await api(`/teams?user_id=${userId}`);
    assert.deepEqual(
      teams.body.items.map((t) => t.display_name),
      [teamName],
    );
  });

  runner.step("polish: events filter by area over every type; a config change lists its keys; devices and local addresses", async () => {
    await page.goto(`${origin}/projects/${project.projectId}/events`);
    await page.getByRole("heading", { name: `Events · ${projectName}` }).waitFor();
    await page.getByText(/The project's event log, newest first: users, sign-in and sessions/).waitFor();
    const select = page.getByLabel("Type", { exact: true });
    const groups = await select.locator("optgroup").evaluateAll((els) => els.map((g) => g.getAttribute("label")));
    assert.deepEqual(groups, [
      "Users",
      "Sign-in and sessions",
      "Credentials",
      "Teams",
      "Permissions",
      "API keys",
      "Authorized apps",
      "Enterprise SSO",
      "Project",
    ]);
    const types = await select
      .locator("optgroup option")
      .evaluateAll((els) => els.map((o) => o.value).filter((v) => !v.startsWith("area:")));
    assert.ok(types.length >= 37, `every event type is offered (${types.length})`);
    assert.ok(types.includes("project.config_changed") && types.includes("session.impersonated") && types.includes("mfa.enrolled"));

    // The Project area: the trusted-domain change names its key, never its value.
    await select.selectOption("area:Project");
    await page.getByRole("button", { name: "Show events" }).click();
    const table = page.getByRole("table", { name: "Events" });
    await table.getByText("project.config_changed").first().waitFor();
    const rowTypes = await table.locator("tbody tr td:nth-child(2) code").allTextContents();
    assert.ok(
      rowTypes.every((t) => ["project.config_changed", "webhook.secret_revealed", "webhook.secret_rotated"].includes(t)),
      rowTypes.join(),
    );
    const detail = await table.locator(".event-detail").first().textContent();
    assert.match(detail, /^Changed: .*domains/i);
    assert.ok(!detail.includes(app.url), "the value stays out");

    // The team made in the browser: Chrome on Linux, from a local address.
    await select.selectOption("area:Teams");
    await page.getByRole("button", { name: "Show events" }).click();
    const created = table.locator("tbody tr").filter({ has: page.locator("code", { hasText: /^team\.created$/ }) });
    await created.waitFor();
    const from = await created.locator("td").nth(4).textContent();
    assert.match(from, /^local/, `the loopback address reads local (${from})`);
    assert.match(from, /Chrome on Linux/, `the device is named (${from})`);
    assert.deepEqual(await checkPage(page, "events"), []);
  });

  runner.step("polish: the Users table stacks rows as cards at 375 px (row height measured)", async () => {
    for (let i = 0; i < 3; i++)
      await api("/users", {
        method: "POST",
        body: { primary_email: `polish-${i}-${stamp}@example.com`, display_name: `Polish user ${i}` },
      });
    await page.goto(`${origin}/projects/${project.projectId}/users`);
    const table = page.getByRole("table").first();
    await table.getByRole("link", { name: member.name }).waitFor();
    const heights = {};
    for (const width of [1100, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await page.waitForTimeout(100);
      heights[width] = await table
        .locator("tbody tr")
        .first()
        .evaluate((tr) => Math.round(tr.getBoundingClientRect().height));
    }
    // The same table without the stacking class is the table as it was before (columns at every width).
    const unstacked = await table.evaluate((t) => {
      t.classList.remove("data-table-stack");
      const h = Math.round(t.querySelector("tbody tr").getBoundingClientRect().height);
      t.classList.add("data-table-stack");
      return h;
    });
    console.log(`  # Users row height: ${heights[1100]} px at 1100 px; at 375 px ${heights[375]} px as cards, ${unstacked} px as columns`);
    await page.setViewportSize({ width: 375, height: 800 });
    await shot("console-polish-01-users-375");
    // The label of each cell shows on the card.
    const label = await table
      .locator("tbody tr")
      .first()
      .locator("td")
      .last()
      .evaluate((td) => getComputedStyle(td, "::before").content);
    assert.equal(label, '"Id"');
    await page.setViewportSize({ width: 1100, height: 800 });
    assert.ok(heights[375] < 200, `a Users row at 375 px is ${heights[375]} px tall`);
    assert.deepEqual(await checkPage(page, "users"), []);
  });

  runner.step("polish: a webhook secret is revealed (logged) and rotated (the old one stops)", async () => {
    const created = await api("/internal/webhooks/endpoints", { method: "POST", body: { url: "https://hooks.example.com/doorman" } });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    await page.goto(`${origin}/projects/${project.projectId}/webhooks`);
    await page.getByRole("button", { name: "Reveal secret of https://hooks.example.com/doorman" }).click();
    const secret = page.getByTestId("new-webhook-secret");
    await secret.waitFor();
    assert.equal((await secret.textContent()).trim(), created.body.secret);
    await page.getByText("Revealing the secret was recorded").waitFor();
    assert.deepEqual(await checkPage(page, "webhooks (secret revealed)"), []);
    await page.getByRole("button", { name: "Hide the secret" }).click();

    await page.getByRole("button", { name: "Rotate secret of https://hooks.example.com/doorman" }).click();
    await page.getByRole("dialog", { name: "Rotate the signing secret?" }).getByRole("button", { name: "Rotate secret" }).click();
    await toast("Signing secret of https://hooks.example.com/doorman rotated.");
    const rotated = (await page.getByTestId("new-webhook-secret").textContent()).trim();
    assert.match(rotated, /^whsec_/);
    assert.notEqual(rotated, created.body.secret);
    assert.equal((await api(`/internal/webhooks/endpoints/${created.body.id}/secret`)).body.secret, rotated);
    const logged = await api("/internal/events?area=Project");
    const kinds = logged.body.items.map((e) => e.type);
    assert.ok(kinds.includes("webhook.secret_revealed") && kinds.includes("webhook.secret_rotated"), kinds.join());
  });

  runner.step("polish: Impersonate opens the project's app signed in as the user", async () => {
    await page.goto(`${origin}/projects/${project.projectId}/users/${userId}`);
    await page.getByText(`Impersonate in the app opens ${app.url}`).waitFor();
    const [popup] = await Promise.all([page.waitForEvent("popup"), page.getByRole("button", { name: "Impersonate in the app" }).click()]);
    const logs = [];
    popup.on("console", (m) => logs.push(m.text()));
    popup.on("pageerror", (e) => logs.push(String(e)));
    await popup.waitForURL(`${app.url}/home`).catch(async (error) => {
      throw new Error(`${error.message}\n${logs.join("\n")}\n${(await popup.textContent("body").catch(() => "")) ?? ""}`);
    });
    await popup.getByTestId("who").getByText(`Signed in as ${member.email}`).waitFor();
    await popup.screenshot({ path: `${shots}/console-polish-02-impersonation-app.png` });
    const sessions = await api(`/auth/sessions?user_id=${userId}`);
    assert.deepEqual(
      sessions.body.items.map((s) => s.is_impersonation),
      [true],
    );
    await popup.close();
    await app.stop();
    await page.getByRole("button", { name: "Reload sessions" }).click();
    await page.getByRole("table", { name: "Active sessions" }).getByText("impersonation").waitFor();
    assert.deepEqual(await checkPage(page, "user (impersonation)"), []);
  });

  runner.step("polish: the console's navigation is in the server's HTML (before hydration, without JavaScript)", async () => {
    const html = await (await fetch(`${origin}/projects/${project.projectId}/events`)).text();
    assert.match(html, /<nav[^>]*aria-label="Project"/);
    for (const path of ["users", "teams", "events", "webhooks", "settings"])
      assert.ok(html.includes(`href="/projects/${project.projectId}/${path}"`), `the server HTML links ${path}`);
    assert.match(html, /<nav[^>]*aria-label="Main"/);
  });
}
