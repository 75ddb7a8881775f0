/**
 * Enterprise SSO management through the SDK (issue 31, ADMIN) against the real worker: the admin
 * app's `getTeamSso(teamId)` (the console's), a team admin's `team.getSso()` (their own session,
 * `$update_team`) and `app.openSsoSetupLink(token)` (the hosted sso-setup page's): camelCase objects
 * with dates, the SCIM token in its one answer, domains verified through the local DoH responder,
 * refusals as KnownErrors.
 */
import { describe, expect, it } from "vitest";
import { KnownError, StackAdminApp, StackClientApp } from "../../sdk/src";
import { formFieldOfError, oidcUpdateOf, samlFormOf, samlUpdateOf, setupTokenOf } from "../../sdk/src/react/components/sso-setup-model";
import { uniqueEmail } from "../helpers/api";
import { IDP_CERT, idpMetadataXml, publishTxt, uniqueDomain } from "../helpers/sso-admin";
import { teamProject } from "../helpers/teams";
import { workerFetch } from "../helpers/worker-fetch";

const base = {
  baseUrl: "http://localhost",
  fetch: (input: string, init: RequestInit) => workerFetch(input, init),
  redirectMethod: "none" as const,
  tokenStore: "memory" as const,
};

async function setUp() {
  const p = await teamProject();
  const client = new StackClientApp({ ...base, projectId: p.projectId, publishableClientKey: p.client.publishableClientKey });
  await client.signUpWithCredential({ email: uniqueEmail("sso-sdk"), password: "sso sdk password 1", noRedirect: true });
  const user = (await client.getUser({ or: "throw" }))!;
  const team = await user.createTeam({ displayName: "Acme" });
  const admin = new StackAdminApp({ ...base, projectId: p.projectId, superSecretAdminKey: p.adminKey.superSecretAdminKey });
  return { p, client, team, admin };
}

describe("SSO management through the SDK", () => {
  it("a team admin manages the team's SSO from the team object: connection, SCIM token, domain, setup link, events", async () => {
    const { team } = await setUp();
    const sso = team.getSso();
    const connection = await sso.createConnection({ protocol: "saml", displayName: "Okta", saml: { idpMetadataXml: idpMetadataXml() } });
    expect(connection).toMatchObject({
      teamId: team.id,
      protocol: "saml",
      enabled: true,
      isComplete: true,
      saml: { idpEntityId: "https://idp.acme.example/metadata", idpSsoUrl: "https://idp.acme.example/sso/redirect", clockSkewSeconds: 120 },
      attributeMapping: { email: null, name: null, groups: null },
      scim: { tokenPrefix: null, groupMapping: [] },
    });
    expect(connection.saml?.idpCertificates.map((c) => c.trim())).toEqual([IDP_CERT]);
    expect(connection.serviceProvider?.acsUrl).toBe(`http://localhost/api/v1/auth/sso/saml/${connection.id}/acs`);
    expect(connection.createdAt).toBeInstanceOf(Date);
    expect(await sso.listConnections()).toEqual([connection]);

    const changed = await sso.updateConnection(connection.id, {
      attributeMapping: { email: "mail" },
      saml: { requireSignedResponse: true },
    });
    expect(changed).toMatchObject({ attributeMapping: { email: "mail" }, saml: { requireSignedResponse: true } });
    const metadata = await sso.getSpMetadata(connection.id);
    expect(metadata.metadataXml).toContain("md:EntityDescriptor");
    const { token, tokenPrefix, baseUrl } = await sso.rotateScimToken(connection.id);
    expect(token).toMatch(/^dmscim_/);
    expect((await sso.getConnection(connection.id)).scim.tokenPrefix).toBe(tokenPrefix);
    expect(baseUrl).toBe(connection.scim.baseUrl);
    expect(await sso.listScimCalls(connection.id)).toEqual([]);

    const domain = await sso.claimDomain(uniqueDomain("sdk"));
    expect(domain).toMatchObject({ status: "pending", verifiedAt: null, txtRecord: { name: `_doorman-verification.${domain.domain}` } });
    const notYet = await sso.verifyDomain(domain.id).catch((e: unknown) => e);
    expect(notYet).toBeInstanceOf(KnownError);
    expect(notYet).toMatchObject({ code: "SSO_DOMAIN_VERIFICATION_FAILED", details: { reason: "record_not_found" } });
    await publishTxt(domain.domain, [domain.txtRecord.value]);
    const verified = await sso.verifyDomain(domain.id);
    expect(verified.status).toBe("verified");
    expect(verified.verifiedAt).toBeInstanceOf(Date);
    expect(await sso.updateDomain(domain.id, { connectionId: connection.id, autoJoin: true })).toMatchObject({
      connectionId: connection.id,
      autoJoin: true,
    });

    const link = await sso.createSetupLink({ expiresInMillis: 3600_000 });
    expect(link.url).toContain("/handler/sso-setup#token=");
    const events = await sso.listEvents();
    expect(events.items.map((e) => e.type)).toEqual(
      expect.arrayContaining([
        "sso_connection.created",
        "sso_domain.verified",
        "sso_setup_link.created",
        "sso_connection.scim_token_rotated",
      ]),
    );
    await sso.removeDomain(domain.id);
    await sso.deleteConnection(connection.id);
    expect(await sso.listConnections()).toEqual([]);
  });

  it("the owner's admin app manages any team's SSO, the group mapping included; a setup link opens its team's", async () => {
    const { team, admin, p } = await setUp();
    const sso = admin.getTeamSso(team.id);
    const draft = await sso.createConnection({ protocol: "oidc", displayName: "Entra ID" });
    expect(draft).toMatchObject({
      enabled: false,
      isComplete: false,
      oidcRedirectUri: `http://localhost/api/v1/auth/sso/oidc/${draft.id}/callback`,
    });
    const mapped = await sso.updateConnection(draft.id, {
      oidc: { issuer: "https://login.acme.example", clientId: "doorman", clientSecret: "s3cret" },
      scimGroupMapping: [{ group: "Engineering", permissionIds: ["$read_members"] }],
      enabled: true,
    });
    expect(mapped).toMatchObject({
      enabled: true,
      oidc: { hasClientSecret: true },
      scim: { groupMapping: [{ group: "Engineering", permissionIds: ["$read_members"] }] },
    });
    expect(JSON.stringify(mapped)).not.toContain("s3cret");

    const { url } = await sso.createSetupLink();
    const token = new URL(url).hash.replace("#token=", "");
    // The IT admin's browser: the project's client key, no account.
    const itAdmin = new StackClientApp({ ...base, projectId: p.projectId, publishableClientKey: p.client.publishableClientKey });
    const opened = await itAdmin.openSsoSetupLink(token);
    expect(opened).toMatchObject({ teamId: team.id, teamDisplayName: "Acme" });
    expect((await opened.sso.listConnections()).map((c) => c.id)).toEqual([draft.id]);
    await opened.sso.updateConnection(draft.id, { displayName: "Entra (set up by IT)" });
    expect((await sso.getConnection(draft.id)).displayName).toBe("Entra (set up by IT)");
    await expect(itAdmin.openSsoSetupLink("not-a-token")).rejects.toMatchObject({ code: "SSO_SETUP_LINK_INVALID" });
  });
});

describe("the setup forms' model (the sso-setup page and the console)", () => {
  it("sends the metadata when pasted, else the fields given, and enables only complete IdP values", () => {
    const empty = samlFormOf(null);
    expect(samlUpdateOf({ ...empty, metadataXml: "<md:EntityDescriptor/>" })).toEqual({
      saml: { idpMetadataXml: "<md:EntityDescriptor/>" },
      enabled: true,
    });
    expect(samlUpdateOf({ ...empty, entityId: " urn:idp " })).toEqual({ saml: { idpEntityId: "urn:idp" } });
    expect(samlUpdateOf({ metadataXml: "", entityId: "urn:idp", ssoUrl: "https://idp/sso", certificate: "PEM" })).toEqual({
      saml: { idpEntityId: "urn:idp", idpSsoUrl: "https://idp/sso", idpCertificates: ["PEM"] },
      enabled: true,
    });
    // An empty secret keeps the stored one (write-only): it is not sent.
    expect(oidcUpdateOf({ issuer: "https://login.example", clientId: "app", clientSecret: "" })).toEqual({
      oidc: { issuer: "https://login.example", clientId: "app" },
      enabled: true,
    });
    expect(oidcUpdateOf({ issuer: "", clientId: "", clientSecret: "s" })).toEqual({ oidc: { clientSecret: "s" } });
  });

  it("puts an API refusal on its form field, reads the link's token from the fragment", () => {
    const refusal = (field: string) => new KnownError("SSO_CONNECTION_INVALID_CONFIG", { field, message: "bad" });
    expect(formFieldOfError(refusal("saml.idp_sso_url"))).toBe("ssoUrl");
    expect(formFieldOfError(refusal("saml.idp_metadata_xml"))).toBe("metadataXml");
    expect(formFieldOfError(refusal("oidc.issuer"))).toBe("issuer");
    expect(formFieldOfError(refusal("enabled"))).toBe("form");
    expect(formFieldOfError(new KnownError("SSO_DOMAIN_INVALID", { domain: "com", message: "x" }))).toBe("domain");
    expect(formFieldOfError(new Error("network"))).toBe("form");
    const token = "a".repeat(45);
    expect(setupTokenOf(`#token=${token}`, "")).toBe(token);
    expect(setupTokenOf("", `?token=${token}`)).toBe(token);
    expect(setupTokenOf("#token=<script>", "")).toBeNull();
  });
});
