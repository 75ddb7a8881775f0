/**
 * Enterprise SSO management in the browser e2e (issue 31, ADMIN): an owner opens a team's SSO page
 * from the team page, adds a SAML connection (a draft whose values the IdP gets first), enters the
 * IdP's metadata (an API refusal first, on its field), downloads the SP metadata file, claims a
 * domain and verifies it against the e2e's DNS-over-HTTPS responder (test/doh-responder.mjs), and
 * makes and rotates the SCIM token (shown once, behind "I have copied the token"). Then the team's IT
 * admin, with no account, completes another team's setup through a setup link on the hosted
 * sso-setup page. axe checks both pages. Last, a team's own admin ($update_team, through the team
 * creator's default permissions) sets up SSO in the hosted account settings' team section, which a
 * plain member does not get. Step names start with "sso console:".
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkPage } from "./a11y-scenario.mjs";
import { adminApi, signUpOwnerWithProject } from "./console-owner.mjs";
import { assert } from "./harness.mjs";

/** A fresh self-signed IdP signing certificate (openssl), as an IdP's metadata carries it: base64 DER. */
function idpCertificateBase64() {
  const dir = mkdtempSync(join(tmpdir(), "sso-idp-"));
  try {
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", join(dir, "k.pem"), "-out", join(dir, "c.pem")].concat([
        "-days",
        "30",
        "-subj",
        "/CN=e2e-idp.example",
      ]),
      { stdio: "pipe" },
    );
    return readFileSync(join(dir, "c.pem"), "utf8").replace(/-----[A-Z ]+-----|\s/g, "");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An IdP's SAML metadata as Okta or Entra export it. */
function idpMetadata(entityId, certificate) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${certificate}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.acme.example/sso/saml"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
}

/** Publishes a TXT record on the e2e's DoH responder (its control API). */
async function publishTxt(name, value) {
  const res = await fetch(`${process.env.DOORMAN_E2E_DOH_URL}/control/records`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name, values: [value] }),
  });
  assert.equal(res.status, 200);
}

export function defineSsoConsoleSteps(runner, { page, origin, shots }) {
  const stamp = Date.now().toString(36);
  const domain = `acme-${stamp}.example`;
  const itDomain = `it-${stamp}.example`;
  const certificate = idpCertificateBase64();
  let project = null;
  let api = null;
  let teamId = "";
  let connectionId = "";
  let firstToken = "";
  const shot = (file) => page.screenshot({ path: `${shots}/${file}.png`, fullPage: true });

  runner.step(
    "sso console: an owner adds a SAML connection from the team page, enters the IdP's metadata and downloads the SP metadata",
    async () => {
      project = await signUpOwnerWithProject(page, origin, {
        email: `sso-owner-${stamp}@example.com`,
        password: "sso-owner-pass-1",
        projectName: `SSO Shop ${stamp}`,
      });
      api = adminApi(origin, project);
      const team = await api("/teams", { method: "POST", body: { display_name: "Acme Corp" } });
      assert.equal(team.status, 201);
      teamId = team.body.id;
      await page.goto(`${origin}/projects/${project.projectId}/teams/${teamId}`);
      await page.getByRole("link", { name: "Set up SSO" }).click();
      await page.waitForURL((url) => url.pathname.endsWith(`/teams/${teamId}/sso`));
      await page.getByRole("heading", { name: "Enterprise SSO · Acme Corp" }).waitFor();
      await page.getByText("No connection yet").waitFor();

      const add = page.getByRole("form", { name: "Add a connection" });
      await add.getByLabel(/SAML 2.0/).check();
      await add.getByLabel("Name", { exact: true }).fill("Acme Okta");
      await add.getByRole("button", { name: "Add connection" }).click();
      await page
        .getByTestId("sso-connection-status")
        .filter({ hasText: /^Draft$/ })
        .waitFor();
      const [stored] = (await api(`/sso/connections?team_id=${teamId}`)).body.items;
      connectionId = stored.id;
      assert.equal(stored.enabled, false);
      assert.equal((await page.getByTestId("sso-sp-entity-id").textContent())?.trim(), stored.service_provider.entity_id);
      assert.equal((await page.getByTestId("sso-sp-acs-url").textContent())?.trim(), `${origin}/api/v1/auth/sso/saml/${connectionId}/acs`);

      // The SP metadata file, also for the draft (its public URL answers once the connection is on).
      const downloading = page.waitForEvent("download");
      await page.getByRole("button", { name: "Download SP metadata" }).click();
      const file = await (await downloading).path();
      const xml = readFileSync(file, "utf8");
      assert.ok(xml.includes(`entityID="${stored.service_provider.entity_id}"`), "the metadata names the SP's entity id");
      assert.ok(xml.includes(`Location="${stored.service_provider.acs_url}"`), "the metadata names the ACS URL");

      // The API's refusal lands on its field: metadata that is not XML.
      const idp = page.getByRole("form", { name: "The identity provider's values" });
      await idp.getByLabel("IdP metadata XML").fill("<not xml");
      await idp.getByRole("button", { name: "Save the IdP's values" }).click();
      await idp.getByText(/metadata could not be read/).waitFor();
      assert.equal(await idp.getByLabel("IdP metadata XML").getAttribute("aria-invalid"), "true");
      await idp.getByLabel("IdP metadata XML").fill(idpMetadata("https://idp.acme.example/metadata", certificate));
      await idp.getByRole("button", { name: "Save the IdP's values" }).click();
      await page.getByTestId("sso-connection-status").filter({ hasText: /^On$/ }).waitFor();
      const saved = (await api(`/sso/connections/${connectionId}`)).body;
      assert.equal(saved.enabled, true);
      assert.equal(saved.saml.idp_entity_id, "https://idp.acme.example/metadata");
      assert.equal(saved.saml.idp_sso_url, "https://idp.acme.example/sso/saml");
      // The public metadata URL serves it now, and the test sign-in link opens the project's hosted sign-in page for it.
      const served = await fetch(stored.service_provider.metadata_url.replace(/^http:\/\/[^/]+/, origin));
      assert.equal(served.status, 200);
      const test = page.getByRole("link", { name: "Test sign-in" });
      assert.equal(await test.getAttribute("href"), `${origin}/p/${project.projectId}/handler/sign-in?sso_connection_id=${connectionId}`);
      await shot("sso-console-connection");
    },
  );

  runner.step("sso console: claim a domain, publish its TXT record on the DoH responder, verify it", async () => {
    const claim = page.getByRole("form", { name: "Claim a domain" });
    await claim.getByLabel("Domain").fill("com");
    await claim.getByRole("button", { name: "Claim domain" }).click();
    await claim.getByText(/top-level domain alone cannot be claimed/).waitFor();
    assert.equal(await claim.getByLabel("Domain").getAttribute("aria-invalid"), "true");
    await claim.getByLabel("Domain").fill(domain.toUpperCase());
    await claim.getByRole("button", { name: "Claim domain" }).click();
    const row = page.getByTestId(`sso-domain-${domain}`);
    await row
      .getByTestId("sso-domain-status")
      .filter({ hasText: /^Pending$/ })
      .waitFor();
    const value = (await row.getByTestId("sso-domain-txt-value").textContent())?.trim() ?? "";
    assert.match(value, /^doorman-verification=[0-9a-z]{32}$/);

    await row.getByRole("button", { name: "Verify" }).click();
    await row.getByText(/TXT record was not found yet/).waitFor();
    await publishTxt(`_doorman-verification.${domain}`, value);
    await row.getByRole("button", { name: "Verify" }).click();
    await row
      .getByTestId("sso-domain-status")
      .filter({ hasText: /^Verified$/ })
      .waitFor();
    await row.getByLabel("Require SSO").check();
    await page.getByText(`Require SSO for ${domain}: on.`).waitFor();
    const [stored] = (await api(`/sso/domains?team_id=${teamId}`)).body.items;
    assert.equal(stored.status, "verified");
    assert.equal(stored.enforce_sso, true);
  });

  runner.step(
    "sso console: the SCIM token is shown once (Done waits for 'I have copied the token'), and rotating replaces it",
    async () => {
      await page.getByRole("button", { name: "Create SCIM token" }).click();
      firstToken = (await page.getByTestId("sso-scim-token").textContent())?.trim() ?? "";
      assert.match(firstToken, /^dmscim_[0-9a-z]{43}$/);
      const done = page.getByRole("button", { name: "Done" });
      assert.equal(await done.isDisabled(), true);
      await page.getByLabel("I have copied the token").check();
      await done.click();
      assert.equal(await page.getByTestId("sso-scim-token").count(), 0);
      await page
        .getByTestId("sso-scim-token-prefix")
        .filter({ hasText: firstToken.slice(0, 11) })
        .waitFor();

      await page.getByRole("button", { name: "Rotate SCIM token" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Rotate token" }).click();
      const second = (await page.getByTestId("sso-scim-token").textContent())?.trim() ?? "";
      assert.match(second, /^dmscim_/);
      assert.notEqual(second, firstToken);
      assert.equal((await api(`/sso/connections/${connectionId}`)).body.scim.token_prefix, second.slice(0, 11));
      await shot("sso-console-scim-token");
      const problems = await checkPage(page, "team SSO page with a new SCIM token");
      assert.deepEqual(problems, []);
      await page.getByLabel("I have copied the token").check();
      await page.getByRole("button", { name: "Done" }).click();
      const events = (await api(`/sso/events?team_id=${teamId}`)).body.items.map((e) => e.type);
      for (const type of ["sso_connection.created", "sso_connection.updated", "sso_domain.verified", "sso_connection.scim_token_rotated"])
        assert.ok(events.includes(type), `${type} in the team's SSO events`);
    },
  );

  runner.step("sso console: an IT admin without an account completes setup through a setup link", async () => {
    const other = await api("/teams", { method: "POST", body: { display_name: "Globex" } });
    assert.equal(other.status, 201);
    const otherTeam = other.body.id;
    await page.goto(`${origin}/projects/${project.projectId}/teams/${otherTeam}/sso`);
    await page.getByRole("heading", { name: "Enterprise SSO · Globex" }).waitFor();
    await page.getByRole("button", { name: "Make a setup link" }).click();
    const url = (await page.getByTestId("sso-setup-link").textContent())?.trim() ?? "";
    assert.ok(url.startsWith(`${origin}/p/${project.projectId}/handler/sso-setup#token=`), url);

    // The IT admin's browser: the project's hosted page, no session of this project.
    await page.goto(url);
    await page.getByRole("heading", { name: "Set up single sign-on" }).waitFor();
    await page.getByText(/For Globex\. This link works until/).waitFor();
    await page.getByLabel("SAML 2.0").check();
    await page.getByRole("button", { name: "Start setting up" }).click();
    await page
      .getByTestId("sso-connection-status")
      .filter({ hasText: /^Waiting for your identity provider's values$/ })
      .waitFor();
    const acs = (await page.getByTestId("sso-sp-acs-url").textContent())?.trim() ?? "";
    assert.match(acs, /\/api\/v1\/auth\/sso\/saml\/[0-9a-f-]+\/acs$/);
    await page.getByLabel("Identity provider metadata (XML)").fill(idpMetadata("https://idp.globex.example/metadata", certificate));
    await page.getByRole("button", { name: "Save" }).click();
    await page
      .getByTestId("sso-connection-status")
      .filter({ hasText: /^Active$/ })
      .waitFor();

    await page.getByLabel("Domain", { exact: true }).fill(itDomain);
    await page.getByRole("button", { name: "Add domain" }).click();
    const row = page.getByTestId(`sso-domain-${itDomain}`);
    await row
      .getByTestId("sso-domain-status")
      .filter({ hasText: /^Not verified$/ })
      .waitFor();
    const value = (await row.locator("code").nth(1).textContent())?.trim() ?? "";
    assert.match(value, /^doorman-verification=/);
    await publishTxt(`_doorman-verification.${itDomain}`, value);
    await row.getByRole("button", { name: "Verify" }).click();
    await row
      .getByTestId("sso-domain-status")
      .filter({ hasText: /^Verified$/ })
      .waitFor();
    await shot("sso-setup-page");
    const problems = await checkPage(page, "hosted sso-setup page");
    assert.deepEqual(problems, []);

    const [connection] = (await api(`/sso/connections?team_id=${otherTeam}`)).body.items;
    assert.equal(connection.enabled, true);
    assert.equal(connection.saml.idp_entity_id, "https://idp.globex.example/metadata");
    const [claimed] = (await api(`/sso/domains?team_id=${otherTeam}`)).body.items;
    assert.equal(claimed.status, "verified");
    // What the IT admin did is in the team's log, marked as done through the link.
    const created = (await api(`/sso/events?team_id=${otherTeam}`)).body.items.find((e) => e.type === "sso_connection.created");
    assert.ok(created?.data?.setup_link_id, "the setup link is named in the event");
    // The link opens nothing of the first team.
    const token = new URL(url).hash.replace("#token=", "");
    const refused = await fetch(`${origin}/api/v1/sso/connections?team_id=${teamId}`, {
      headers: { "x-stack-project-id": project.projectId, "x-stack-access-type": "client", "x-doorman-sso-setup-token": token },
    });
    assert.equal(refused.status, 403);
    assert.equal((await refused.json()).code, "SSO_SETUP_LINK_INVALID");
  });
  runner.step("sso console: a team admin sets up SSO in account settings; a plain member has no SSO section", async () => {
    const hosted = `${origin}/p/${project.projectId}/handler`;
    const admin = { email: `sso-team-admin-${stamp}@example.com`, password: "sso-team-admin-1" };
    const member = { email: `sso-team-member-${stamp}@example.com`, password: "sso-team-member-1" };
    const users = {};
    for (const [key, who] of Object.entries({ admin, member })) {
      const res = await api("/users", {
        method: "POST",
        body: { primary_email: who.email, primary_email_auth_enabled: true, password: who.password },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      users[key] = res.body.id;
    }
    // The creator gets the team creator's default permissions (team_admin, which holds $update_team).
    const team = await api("/teams", { method: "POST", body: { display_name: "Initech", creator_user_id: users.admin } });
    assert.equal(team.status, 201, JSON.stringify(team.body));
    const joined = await api(`/team-memberships/${team.body.id}/${users.member}`, { method: "POST", body: {} });
    assert.equal(joined.status, 201, JSON.stringify(joined.body));

    const teams = () => page.getByRole("region", { name: "Teams", exact: true });
    const ssoSection = () => teams().getByRole("region", { name: "Single sign-on (SSO)", exact: true });
    const signInAs = async (who) => {
      await page.context().clearCookies();
      await page.goto(`${hosted}/sign-in`);
      await page.getByLabel("Email", { exact: true }).fill(who.email);
      await page.getByLabel("Password", { exact: true }).fill(who.password);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.waitForURL((url) => !url.pathname.endsWith("/sign-in"));
      await page.goto(`${hosted}/account-settings`);
      const switcher = teams().getByLabel("Selected team", { exact: true });
      await switcher.selectOption(team.body.id);
      await teams().locator(`[data-team-id="${team.body.id}"]`).waitFor();
    };

    await signInAs(admin);
    await ssoSection().getByLabel("SAML 2.0").check();
    await ssoSection().getByRole("button", { name: "Start setting up" }).click();
    await ssoSection()
      .getByTestId("sso-connection-status")
      .filter({ hasText: /^Waiting for your identity provider's values$/ })
      .waitFor();
    const entityId = (await ssoSection().getByTestId("sso-sp-entity-id").textContent())?.trim() ?? "";
    assert.match(entityId, /\/api\/v1\/auth\/sso\/saml\/[0-9a-f-]+\/metadata$/);
    const teamDomain = `initech-${stamp}.example`;
    await ssoSection().getByLabel("Domain", { exact: true }).fill(teamDomain);
    await ssoSection().getByRole("button", { name: "Add domain" }).click();
    await ssoSection()
      .getByTestId(`sso-domain-${teamDomain}`)
      .getByTestId("sso-domain-status")
      .filter({ hasText: /^Not verified$/ })
      .waitFor();
    await shot("sso-team-settings");
    const problems = await checkPage(page, "account settings with the team SSO section");
    assert.deepEqual(problems, []);
    const [draft] = (await api(`/sso/connections?team_id=${team.body.id}`)).body.items;
    assert.equal(draft.protocol, "saml");
    assert.equal(draft.enabled, false);

    // A member without $update_team sees the team, not its SSO.
    await signInAs(member);
    // Its invitation form needs $invite_members (team_member has it): from then on the permissions are loaded.
    await teams().locator(`[data-team-id="${team.body.id}"]`).getByLabel("Invite by email", { exact: true }).waitFor();
    assert.equal(await ssoSection().count(), 0, "no SSO section without $update_team");
  });
}
