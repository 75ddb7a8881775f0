/**
 * Enterprise SSO through a SAML connection in Chromium (issue 31, SAML), on a project's hosted sign-in
 * page against the samlify IdP (test/saml-idp.mjs, started by stack.mjs): SP-initiated ("Continue with
 * SSO" → the IdP parses our AuthnRequest and shows its sign-in form → its page auto-posts the signed
 * response to our ACS → signed in, email verified: the team verified the domain); IdP-initiated (the
 * IdP's portal posts an unsolicited response → bounced to the hosted sign-in page → an SP-initiated
 * sign-in that the IdP's session answers at once → signed in); a refused response shows the ACS's error
 * page. The connection and domain are written to the stack's local D1 (until the management API exists;
 * without an SP key, so requests are unsigned and assertions plain), and our SP metadata is given to the IdP.
 */
import { execFileSync } from "node:child_process";
import { join, resolve } from "node:path";
import { adminApi, signUpOwnerWithProject } from "./console-owner.mjs";
import { assert } from "./harness.mjs";

const root = resolve(import.meta.dirname, "../..");
const sql = (value) => `'${String(value).replace(/'/g, "''")}'`;

/** Runs SQL against the stack's local D1 (the same state `wrangler pages dev` serves). */
function d1(command) {
  const state = process.env.DOORMAN_E2E_STATE;
  if (!state) throw new Error("DOORMAN_E2E_STATE is not set (test/e2e/stack.mjs sets it)");
  execFileSync(
    join(root, "node_modules", ".bin", "wrangler"),
    ["d1", "execute", "DB", "--local", "--persist-to", state, "--command", command],
    {
      cwd: root,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" },
      stdio: "pipe",
    },
  );
}

export function defineSsoSamlSteps(runner, { page, origin, shots }) {
  const stamp = Date.now().toString(36);
  const input = (label) => page.getByLabel(label, { exact: true });
  const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const idp = () => process.env.DOORMAN_E2E_SAML_IDP ?? "";
  const state = { projectId: "", api: null, connectionId: crypto.randomUUID() };
  const domain = `saml-${stamp}.example`;
  const hosted = (name) => `${origin}/p/${state.projectId}/handler/${name}`;
  const entityId = () => `${origin}/api/v1/auth/sso/saml/${state.connectionId}/metadata`;

  /** At the IdP's sign-in form (after it accepted our AuthnRequest, or from its portal). */
  const loginAtIdp = async (email, name) => {
    await page.waitForURL((url) => url.origin === idp());
    await page.getByRole("heading", { name: "Test IdP" }).waitFor();
    await input("Email").fill(email);
    await input("Name").fill(name);
    await page.getByRole("button", { name: "Sign in to the IdP" }).click();
  };
  /** Back on the hosted pages, signed in: account settings shows `email`. */
  const signedInAs = async (email) => {
    await page.waitForURL(
      (url) => url.origin === origin && !url.pathname.endsWith("/oauth-callback") && !url.pathname.endsWith("/sign-in"),
    );
    await page.goto(hosted("account-settings"));
    await page.getByRole("heading", { name: "Account settings" }).waitFor();
    assert.equal(await input("Email").inputValue(), email);
  };

  runner.step(
    "sso saml: a team with a SAML connection to the samlify IdP and a verified domain; the IdP gets our SP metadata",
    async () => {
      const owner = { email: `saml-owner-${stamp}@example.com`, password: "saml-owner-password" };
      const created = await signUpOwnerWithProject(page, origin, { ...owner, projectName: "SAML Shop" });
      state.projectId = created.projectId;
      state.api = adminApi(origin, created);
      const team = await state.api("/teams", { method: "POST", body: { display_name: "Acme SAML" } });
      assert.equal(team.status, 201, JSON.stringify(team.body));
      const keys = await (await fetch(`${idp()}/keys`)).json();
      const config = {
        idpEntityId: keys.entityId,
        idpSsoUrl: keys.ssoUrl,
        idpCertificates: [keys.certificates.main],
        requireSignedResponse: false,
        requireEncryptedAssertions: false,
        signAuthnRequests: false,
        clockSkewSeconds: 120,
        attributeMapping: { email: null, name: null, groups: null },
      };
      const now = Date.now();
      d1(
        "INSERT INTO sso_connections (id, project_id, team_id, protocol, display_name, enabled, config, allow_idp_initiated, scim_group_mapping, created_at, updated_at) " +
          `VALUES (${sql(state.connectionId)}, ${sql(state.projectId)}, ${sql(team.body.id)}, 'saml', 'Acme SAML IdP', 1, ${sql(JSON.stringify(config))}, 1, '{}', ${now}, ${now});` +
          "INSERT INTO sso_domains (id, project_id, team_id, connection_id, domain, verification_token, status, verified_at, enforce_sso, auto_join, created_at) VALUES " +
          `(${sql(crypto.randomUUID())}, ${sql(state.projectId)}, ${sql(team.body.id)}, ${sql(state.connectionId)}, ${sql(domain)}, 't1', 'verified', ${now}, 0, 1, ${now});`,
      );
      // The IT admin's step: the IdP reads our metadata (entity ID, ACS URL).
      const metadata = await fetch(entityId());
      assert.equal(metadata.status, 200);
      const registered = await fetch(`${idp()}/sps`, { method: "POST", body: JSON.stringify({ metadata: await metadata.text() }) });
      assert.equal(registered.status, 200, await registered.clone().text());
      assert.equal((await registered.json()).entityId, entityId());
    },
  );

  runner.step("sso saml: SP-initiated from the hosted sign-in page: Continue with SSO, the IdP's form, back signed in", async () => {
    await page.context().clearCookies();
    await page.goto(hosted("sign-in"));
    await page.getByRole("button", { name: "Continue with SSO" }).click();
    await page.getByRole("heading", { name: "Sign in with SSO" }).waitFor();
    await input("Work email").fill(`ada@${domain}`);
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await loginAtIdp(`ada@${domain}`, "Ada Lovelace");
    await signedInAs(`ada@${domain}`);
    await page.getByRole("region", { name: "Emails" }).getByText("Verified", { exact: true }).waitFor();
    assert.equal(await input("Display name").inputValue(), "Ada Lovelace");
    await shot("sso-saml-01-signed-in");
    // Auto-join: the new user is a member of the team.
    const listed = await state.api(`/users?query=${encodeURIComponent(`ada@${domain}`)}`);
    const members = await state.api(`/team-member-profiles?user_id=${listed.body.items[0].id}`);
    assert.equal(members.body.items.length, 1, JSON.stringify(members.body));
  });

  runner.step("sso saml: IdP-initiated from the IdP's portal: bounced through the hosted sign-in page, signed in", async () => {
    await page.context().clearCookies();
    await page.goto(`${idp()}/start?sp=${encodeURIComponent(entityId())}`);
    await loginAtIdp(`grace@${domain}`, "Grace Hopper");
    // The unsolicited response lands on the ACS, which sends the browser to the hosted sign-in page with
    // ?sso_connection_id=; that page starts an SP-initiated sign-in, which the IdP's session answers at once.
    await signedInAs(`grace@${domain}`);
    const signedIn = await state.api("/internal/events?type=sso.signed_in");
    assert.ok(
      signedIn.body.items.some((e) => e.data.connection_id === state.connectionId && e.data.idp_initiated === false),
      JSON.stringify(signedIn.body.items),
    );
    await shot("sso-saml-02-idp-initiated");
  });

  runner.step("sso saml: a refused response shows the ACS's error page with its code", async () => {
    await page.goto(hosted("sign-in"));
    // What a broken IdP would post: the browser submits it to the ACS as the auto-posting page does.
    await page.evaluate((action) => {
      const form = document.createElement("form");
      form.method = "post";
      form.action = action;
      const field = document.createElement("input");
      field.type = "hidden";
      field.name = "SAMLResponse";
      field.value = btoa("<samlp:Response xmlns:samlp='urn:oasis:names:tc:SAML:2.0:protocol' Version='2.0'/>");
      form.append(field);
      document.body.append(form);
      form.submit();
    }, `${origin}/api/v1/auth/sso/saml/${state.connectionId}/acs`);
    await page.getByRole("heading", { name: "Single sign-on failed" }).waitFor();
    assert.equal(await page.locator("#error-code").textContent(), "SAML_RESPONSE_INVALID");
    await shot("sso-saml-03-refused");
    const refused = await state.api("/internal/events?type=sso.sign_in_refused");
    assert.equal(refused.body.items[0]?.data.reason, "assertion_count");
  });
}
