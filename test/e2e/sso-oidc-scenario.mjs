/**
 * Enterprise SSO through an OIDC connection in Chromium (issue 31, FLOW), on a project's hosted sign-in
 * page against the bundled oidc-provider (its public MOCK client): "Continue with SSO" asks the work
 * email, the browser goes through the IdP's login and comes back signed in (email verified: the team
 * verified the domain); the IdP-initiated bounce (`?sso_connection_id=`) starts the connection at once;
 * and a password attempt at a domain that enforces SSO moves to the SSO step with the message, then
 * signs that same user in through the IdP. Until the management API exists, the team's connection and
 * domains are written to the stack's local D1 with `wrangler d1 execute` (stack.mjs names its state).
 */
import { execFile } from "node:child_process";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { adminApi, signUpOwnerWithProject } from "./console-owner.mjs";
import { assert } from "./harness.mjs";

const root = resolve(import.meta.dirname, "../..");
const sql = (value) => `'${String(value).replace(/'/g, "''")}'`;

/**
 * Runs SQL against the stack's local D1 (the same state `wrangler pages dev` serves). Asynchronous on
 * purpose: a blocking child would stall the event loop while the server drops idle keep-alive sockets.
 */
async function d1(command) {
  const state = process.env.DOORMAN_E2E_STATE;
  if (!state) throw new Error("DOORMAN_E2E_STATE is not set (test/e2e/stack.mjs sets it)");
  const wrangler = join(root, "node_modules", ".bin", "wrangler");
  await promisify(execFile)(wrangler, ["d1", "execute", "DB", "--local", "--persist-to", state, "--command", command], {
    cwd: root,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" },
  });
}

export function defineSsoOidcSteps(runner, { page, origin, shots }) {
  const stamp = Date.now().toString(36);
  const input = (label) => page.getByLabel(label, { exact: true });
  const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const state = { projectId: "", api: null, connectionId: crypto.randomUUID() };
  const open = `open-${stamp}.example`;
  const enforced = `enforced-${stamp}.example`;
  const hosted = (page) => `${origin}/p/${state.projectId}/handler/${page}`;
  const issuer = () => process.env.DOORMAN_E2E_OIDC_ISSUER ?? "";

  /** At the dev IdP's login form: signs in as `email` (the IdP then returns to Doorman). */
  const loginAtIdp = async (email) => {
    await page.waitForURL((url) => url.origin === new URL(issuer()).origin && url.pathname.startsWith("/interaction/"));
    await page.getByRole("heading", { name: "Dev sign-in" }).waitFor();
    await input("Email").fill(email);
    await page.getByRole("button", { name: "Sign in" }).click();
  };
  /** Back on the hosted pages, signed in: account settings shows `email`. */
  const signedInAs = async (email) => {
    await page.waitForURL((url) => url.origin === origin && !url.pathname.endsWith("/oauth-callback"));
    await page.goto(hosted("account-settings"));
    await page.getByRole("heading", { name: "Account settings" }).waitFor();
    assert.equal(await input("Email").inputValue(), email);
  };
  /** Signed out of the hosted pages and of the IdP (its session would skip the login form). */
  const signOutEverywhere = async () => {
    await page.context().clearCookies();
  };

  runner.step("sso oidc: a team with an OIDC connection, a verified domain and an enforced one", async () => {
    const owner = { email: `sso-owner-${stamp}@example.com`, password: "sso-owner-password" };
    const created = await signUpOwnerWithProject(page, origin, { ...owner, projectName: "SSO Shop" });
    state.projectId = created.projectId;
    state.api = adminApi(origin, created);
    const team = await state.api("/teams", { method: "POST", body: { display_name: "Acme" } });
    assert.equal(team.status, 201, JSON.stringify(team.body));
    // A password user at the enforced domain, made by the back end before the domain was enforced.
    const user = await state.api("/users", {
      method: "POST",
      body: {
        primary_email: `pat@${enforced}`,
        primary_email_verified: true,
        primary_email_auth_enabled: true,
        password: "pat-password-123",
      },
    });
    assert.equal(user.status, 201, JSON.stringify(user.body));
    state.patId = user.body.id;
    const now = Date.now();
    // The dev IdP's public client (PKCE only): no secret to seal outside the worker.
    const config = {
      issuer: issuer(),
      clientId: "MOCK",
      clientSecretSealed: null,
      scopes: [],
      attributeMapping: { email: null, name: null, groups: null },
    };
    await d1(
      "INSERT INTO sso_connections (id, project_id, team_id, protocol, display_name, enabled, config, allow_idp_initiated, scim_group_mapping, created_at, updated_at) " +
        `VALUES (${sql(state.connectionId)}, ${sql(state.projectId)}, ${sql(team.body.id)}, 'oidc', 'Acme IdP', 1, ${sql(JSON.stringify(config))}, 0, '{}', ${now}, ${now});` +
        "INSERT INTO sso_domains (id, project_id, team_id, connection_id, domain, verification_token, status, verified_at, enforce_sso, auto_join, created_at) VALUES " +
        `(${sql(crypto.randomUUID())}, ${sql(state.projectId)}, ${sql(team.body.id)}, NULL, ${sql(open)}, 't1', 'verified', ${now}, 0, 1, ${now}), ` +
        `(${sql(crypto.randomUUID())}, ${sql(state.projectId)}, ${sql(team.body.id)}, NULL, ${sql(enforced)}, 't2', 'verified', ${now}, 1, 0, ${now});`,
    );
  });

  runner.step("sso oidc: the hosted sign-in page's SSO step signs a new user in through the IdP", async () => {
    await signOutEverywhere();
    await page.goto(hosted("sign-in"));
    await page.getByRole("button", { name: "Continue with SSO" }).click();
    await page.getByRole("heading", { name: "Sign in with SSO" }).waitFor();
    // An address no team verified: said at the field, nothing leaves the page.
    await input("Work email").fill(`ada@elsewhere-${stamp}.example`);
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await page.getByText("No single sign-on (SSO) is set up for this email.").waitFor();
    assert.equal(await input("Work email").getAttribute("aria-invalid"), "true");
    await shot("sso-oidc-01-not-configured");
    await input("Work email").fill(`ada@${open}`);
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await loginAtIdp(`ada@${open}`);
    await signedInAs(`ada@${open}`);
    await page.getByRole("region", { name: "Emails" }).getByText("Verified", { exact: true }).waitFor();
    await shot("sso-oidc-02-signed-in");
    // The team's auto-join made the new user a member.
    const listed = await state.api(`/users?query=${encodeURIComponent(`ada@${open}`)}`);
    const members = await state.api(`/team-member-profiles?user_id=${listed.body.items[0].id}`);
    assert.equal(members.body.items.length, 1, JSON.stringify(members.body));
  });

  runner.step("sso oidc: ?sso_connection_id= (the IdP-initiated bounce) starts the connection at once", async () => {
    await signOutEverywhere();
    await page.goto(`${hosted("sign-in")}?sso_connection_id=${state.connectionId}`);
    await loginAtIdp(`ada@${open}`);
    await signedInAs(`ada@${open}`);
  });

  runner.step("sso oidc: an enforced domain's password attempt is routed to SSO with the message, then signs in there", async () => {
    await signOutEverywhere();
    const email = `pat@${enforced}`;
    await page.goto(hosted("sign-in"));
    await input("Email").fill(email);
    await input("Password").fill("pat-password-123");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("heading", { name: "Sign in with SSO" }).waitFor();
    await page.getByText(`Your organization requires single sign-on (SSO) for ${email}. Continue with SSO to sign in.`).waitFor();
    assert.equal(await input("Work email").inputValue(), email);
    await shot("sso-oidc-03-enforced");
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await loginAtIdp(email);
    await signedInAs(email);
    // The same user, linked (the team verified the domain), not a second one.
    const listed = await state.api(`/users?query=${encodeURIComponent(email)}`);
    assert.deepEqual(
      listed.body.items.map((u) => u.id),
      [state.patId],
    );
  });
}
