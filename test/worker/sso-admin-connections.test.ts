/**
 * Enterprise SSO management (issue 31, ADMIN): a team's connections through /sso/connections:
 * create (complete, or a disabled draft whose SP values the IdP gets first), read, list, change
 * (with concurrent changes of different fields all landing), delete (identities by cascade, never
 * the users), the SCIM token (answered once, SHA-256 stored, the old one replaced), the last SCIM
 * calls, the events written in each change's batch, and secrets never answered.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../worker/crypto/hash";
import { call } from "../helpers/api";
import { IDP_CERT, idpMetadataXml, ok, samlConnection, ssoSetup } from "../helpers/sso-admin";
import { workerFetch } from "../helpers/worker-fetch";

type Connection = Record<string, any> & { id: string; updated_at_millis: number };

async function eventsOf(s: Awaited<ReturnType<typeof ssoSetup>>, type: string) {
  const body = await ok(`/internal/events?type=${type}&team_id=${s.teamId}`, s.p.admin);
  return body.items as { type: string; team_id: string | null; data: Record<string, unknown> }[];
}

const storedConnection = (id: string) => env.DB.prepare("SELECT * FROM sso_connections WHERE id = ?").bind(id).first<Record<string, any>>();

describe("SSO connections: create and read", () => {
  it("a complete SAML connection is enabled, answers its SP values and its settings, and writes sso_connection.created", async () => {
    const s = await ssoSetup();
    const c: Connection = await ok("/sso/connections", { ...s.p.admin, body: samlConnection(s.teamId) }, 201);
    expect(c).toMatchObject({
      team_id: s.teamId,
      protocol: "saml",
      display_name: "Acme Okta",
      enabled: true,
      is_complete: true,
      allow_idp_initiated: false,
      oidc: null,
      oidc_redirect_uri: null,
      saml: {
        idp_entity_id: "https://idp.acme.example/saml",
        idp_sso_url: "https://idp.acme.example/sso",
        require_signed_response: false,
        require_encrypted_assertions: false,
        sign_authn_requests: false,
        clock_skew_seconds: 120,
      },
      attribute_mapping: { email: null, name: null, groups: null },
      scim: { token_prefix: null, group_mapping: [] },
    });
    expect(c.saml.idp_certificates.map((pem: string) => pem.trim())).toEqual([IDP_CERT]);
    // Its own SP key pair: the certificate is public (in the metadata), the private key sealed and never answered.
    expect(c.service_provider.certificate).toMatch(/^-----BEGIN CERTIFICATE-----\n[A-Za-z0-9+/=\n]+-----END CERTIFICATE-----\n?$/);
    const stored = await storedConnection(c.id);
    expect(stored?.sp_private_key_sealed).toMatch(/^v1\./);
    expect(stored?.sp_private_key_sealed).not.toContain("PRIVATE KEY");
    expect(c.service_provider).toMatchObject({
      entity_id: `http://localhost/api/v1/auth/sso/saml/${c.id}/metadata`,
      metadata_url: `http://localhost/api/v1/auth/sso/saml/${c.id}/metadata`,
      acs_url: `http://localhost/api/v1/auth/sso/saml/${c.id}/acs`,
    });
    expect(c.scim.base_url).toBe(`http://localhost/api/v1/scim/${c.id}`);
    expect(await ok(`/sso/connections/${c.id}`, s.p.server)).toEqual(c);
    const listed = await ok(`/sso/connections?team_id=${s.teamId}`, s.asAdmin);
    expect(listed.items).toEqual([c]);
    const [created] = await eventsOf(s, "sso_connection.created");
    expect(created).toMatchObject({ team_id: s.teamId, data: { connection_id: c.id, protocol: "saml" } });
  });

  it("a connection without IdP settings is a disabled draft with its SP values and redirect URI, and cannot be enabled until complete", async () => {
    const s = await ssoSetup();
    const saml: Connection = await ok(
      "/sso/connections",
      { ...s.asAdmin, body: { team_id: s.teamId, protocol: "saml", display_name: "Draft" } },
      201,
    );
    expect(saml).toMatchObject({
      enabled: false,
      is_complete: false,
      saml: { idp_entity_id: null, idp_sso_url: null, idp_certificates: [] },
    });
    expect(saml.service_provider.acs_url).toContain(`/auth/sso/saml/${saml.id}/acs`);
    const oidc: Connection = await ok(
      "/sso/connections",
      { ...s.asAdmin, body: { team_id: s.teamId, protocol: "oidc", display_name: "Entra" } },
      201,
    );
    expect(oidc).toMatchObject({ enabled: false, is_complete: false, service_provider: null, oidc: { issuer: null, client_id: null } });
    expect(oidc.oidc_redirect_uri).toBe(`http://localhost/api/v1/auth/sso/oidc/${oidc.id}/callback`);

    const enable = await call(`/sso/connections/${saml.id}`, { ...s.asAdmin, method: "PATCH", body: { enabled: true } });
    expect(enable.status).toBe(400);
    expect(enable.body).toMatchObject({ code: "SSO_CONNECTION_INVALID_CONFIG", details: { field: "enabled" } });
    const refusedCreate = await call("/sso/connections", {
      ...s.asAdmin,
      body: { team_id: s.teamId, protocol: "oidc", display_name: "X", enabled: true, oidc: { issuer: "https://login.acme.example" } },
    });
    expect(refusedCreate.body.code).toBe("SSO_CONNECTION_INVALID_CONFIG");

    // The IdP's values arrive later: the draft completes, and is enabled when asked.
    const done: Connection = await ok(`/sso/connections/${oidc.id}`, {
      ...s.asAdmin,
      method: "PATCH",
      body: { oidc: { issuer: "https://login.acme.example/tenant/v2.0/", client_id: "doorman-app" }, enabled: true },
    });
    expect(done).toMatchObject({
      enabled: true,
      is_complete: true,
      oidc: { issuer: "https://login.acme.example/tenant/v2.0", client_id: "doorman-app" },
    });
  });

  it("every setting is checked, and a refusal names its field", async () => {
    const s = await ssoSetup();
    const refused = async (body: Record<string, unknown>, field: string) => {
      const res = await call("/sso/connections", { ...s.p.admin, body });
      expect(res.status, res.text).toBe(400);
      expect(res.body).toMatchObject({ code: "SSO_CONNECTION_INVALID_CONFIG", details: { field } });
    };
    const saml = (settings: Record<string, unknown>) =>
      samlConnection(s.teamId, { saml: { ...samlConnection(s.teamId).saml, ...settings } });
    await refused(saml({ idp_sso_url: "javascript:alert(1)" }), "saml.idp_sso_url");
    await refused(saml({ idp_sso_url: "https://user:pw@idp.acme.example/sso" }), "saml.idp_sso_url");
    await refused(saml({ idp_certificates: ["not a certificate"] }), "saml.idp_certificates");
    await refused(saml({ idp_certificates: [] }), "saml.idp_certificates");
    await refused(saml({ idp_entity_id: "  " }), "saml.idp_entity_id");
    await refused({ team_id: s.teamId, protocol: "saml", display_name: "X", oidc: { issuer: "https://a.example" } }, "oidc");
    await refused({ team_id: s.teamId, protocol: "oidc", display_name: "X", oidc: { issuer: "ftp://a.example" } }, "oidc.issuer");
    await refused(
      { team_id: s.teamId, protocol: "oidc", display_name: "X", oidc: { issuer: "https://a.example/?tenant=1" } },
      "oidc.issuer",
    );
    await refused({ team_id: s.teamId, protocol: "oidc", display_name: "X", oidc: { scopes: ["has space"] } }, "oidc.scopes");
    await refused(
      samlConnection(s.teamId, { scim_group_mapping: [{ group: "Admins", permission_ids: ["no_such_permission"] }] }),
      "scim_group_mapping",
    );
    // Zod bounds: an unknown field or a wrong type is a SCHEMA_ERROR, never a 500.
    const schema = await call("/sso/connections", { ...s.p.admin, body: { ...samlConnection(s.teamId), protocol: "ldap" } });
    expect(schema.body.code).toBe("SCHEMA_ERROR");
    const unknown = await call("/sso/connections", { ...s.p.admin, body: { ...samlConnection(s.teamId), sp_private_key: "x" } });
    expect(unknown.body.code).toBe("SCHEMA_ERROR");
  });
});

describe("SSO connections: IdP metadata and SP metadata", () => {
  it("the IdP's metadata XML fills the IdP fields; a broken one is refused on its field", async () => {
    const s = await ssoSetup();
    const body = (xml: string) => ({ team_id: s.teamId, protocol: "saml", display_name: "From metadata", saml: { idp_metadata_xml: xml } });
    const c: Connection = await ok("/sso/connections", { ...s.asAdmin, body: body(idpMetadataXml()) }, 201);
    expect(c).toMatchObject({
      enabled: true,
      is_complete: true,
      saml: { idp_entity_id: "https://idp.acme.example/metadata", idp_sso_url: "https://idp.acme.example/sso/redirect" },
    });
    expect(c.saml.idp_certificates.map((pem: string) => pem.trim())).toEqual([IDP_CERT]);
    for (const xml of ["<not-xml", "<!DOCTYPE x [<!ENTITY a 'b'>]><x/>", idpMetadataXml().replace(/HTTP-Redirect/g, "SOAP")]) {
      const res = await call("/sso/connections", { ...s.asAdmin, body: body(xml) });
      expect(res.status, res.text).toBe(400);
      expect(res.body).toMatchObject({ code: "SSO_CONNECTION_INVALID_CONFIG", details: { field: "saml.idp_metadata_xml" } });
    }
  });

  it("a draft's SP metadata can be downloaded (entity id, ACS, its certificate) before the public URL serves it", async () => {
    const s = await ssoSetup();
    const draft: Connection = await ok(
      "/sso/connections",
      { ...s.asAdmin, body: { team_id: s.teamId, protocol: "saml", display_name: "Draft" } },
      201,
    );
    const download = await ok(`/sso/connections/${draft.id}/sp-metadata`, s.asAdmin);
    expect(download.metadata_url).toBe(draft.service_provider.metadata_url);
    expect(download.metadata_xml).toContain(`entityID="${draft.service_provider.entity_id}"`);
    expect(download.metadata_xml).toContain(`Location="${draft.service_provider.acs_url}"`);
    const certBody = draft.service_provider.certificate.replace(/-----[A-Z ]+-----|\s/g, "");
    expect(download.metadata_xml).toContain(certBody);
    // The public metadata URL (the SAML part's) serves it once the connection is complete and enabled.
    const publicUrl = `http://localhost/api/v1/auth/sso/saml/${draft.id}/metadata`;
    expect((await workerFetch(publicUrl)).status).toBe(404);
    await ok(`/sso/connections/${draft.id}`, {
      ...s.asAdmin,
      method: "PATCH",
      body: { saml: samlConnection(s.teamId).saml, enabled: true },
    });
    const served = await workerFetch(publicUrl);
    expect(served.status).toBe(200);
    expect(await served.text()).toContain(certBody);
    const oidc: Connection = await ok(
      "/sso/connections",
      { ...s.asAdmin, body: { team_id: s.teamId, protocol: "oidc", display_name: "O" } },
      201,
    );
    expect((await call(`/sso/connections/${oidc.id}/sp-metadata`, s.asAdmin)).body).toMatchObject({
      code: "SSO_CONNECTION_INVALID_CONFIG",
      details: { field: "protocol" },
    });
  });
});

describe("SSO connections: secrets", () => {
  it("the OIDC client secret is sealed at rest, never answered (has_client_secret only), and can be replaced or removed", async () => {
    const s = await ssoSetup();
    const secret = "super-secret-client-secret-value";
    const c: Connection = await ok(
      "/sso/connections",
      {
        ...s.p.admin,
        body: {
          team_id: s.teamId,
          protocol: "oidc",
          display_name: "Entra ID",
          oidc: { issuer: "https://login.acme.example", client_id: "abc", client_secret: secret, scopes: ["offline_access", "openid"] },
        },
      },
      201,
    );
    expect(c.oidc).toEqual({ issuer: "https://login.acme.example", client_id: "abc", has_client_secret: true, scopes: ["offline_access"] });
    for (const res of [
      await call(`/sso/connections/${c.id}`, s.p.admin),
      await call(`/sso/connections?team_id=${s.teamId}`, s.asAdmin),
      await call(`/internal/events?team_id=${s.teamId}`, s.p.admin),
    ])
      expect(res.text).not.toContain(secret);
    const row = await storedConnection(c.id);
    const config = JSON.parse(row?.config);
    expect(config.clientSecretSealed).toMatch(/^sealed:v1\./);
    expect(row?.config).not.toContain(secret);

    const kept: Connection = await ok(`/sso/connections/${c.id}`, { ...s.p.admin, method: "PATCH", body: { oidc: { client_id: "abc2" } } });
    expect(kept.oidc.has_client_secret).toBe(true);
    expect(JSON.parse((await storedConnection(c.id))?.config).clientSecretSealed).toBe(config.clientSecretSealed);
    const removed: Connection = await ok(`/sso/connections/${c.id}`, {
      ...s.p.admin,
      method: "PATCH",
      body: { oidc: { client_secret: null } },
    });
    expect(removed.oidc.has_client_secret).toBe(false);
  });

  it("the SCIM token is dmscim_ + 43 characters, answered once, stored as its SHA-256 with a display prefix; a rotation replaces it", async () => {
    const s = await ssoSetup();
    const c: Connection = await ok("/sso/connections", { ...s.p.admin, body: samlConnection(s.teamId) }, 201);
    const first = await ok(`/sso/connections/${c.id}/scim-token`, { ...s.asAdmin, body: {} });
    expect(first.scim_token).toMatch(/^dmscim_[0-9a-z]{43}$/);
    expect(first).toMatchObject({
      scim_token_prefix: first.scim_token.slice(0, 11),
      scim_base_url: `http://localhost/api/v1/scim/${c.id}`,
    });
    let row = await storedConnection(c.id);
    expect(row?.scim_token_hash).toBe(await sha256Hex(first.scim_token));
    expect(row?.scim_token_prefix).toBe(first.scim_token.slice(0, 11));
    const read = await call(`/sso/connections/${c.id}`, s.p.admin);
    expect(read.body.scim.token_prefix).toBe(first.scim_token_prefix);
    expect(read.text).not.toContain(first.scim_token);

    const second = await ok(`/sso/connections/${c.id}/scim-token`, { ...s.p.admin, body: {} });
    expect(second.scim_token).not.toBe(first.scim_token);
    row = await storedConnection(c.id);
    expect(row?.scim_token_hash).toBe(await sha256Hex(second.scim_token));
    // The old token's hash is gone from every row: SCIM finds no connection by it.
    const old = await env.DB.prepare("SELECT count(*) AS n FROM sso_connections WHERE scim_token_hash = ?")
      .bind(await sha256Hex(first.scim_token))
      .first<{ n: number }>();
    expect(old?.n).toBe(0);
    const events = await eventsOf(s, "sso_connection.scim_token_rotated");
    expect(events).toHaveLength(2);
    expect(JSON.stringify(events)).not.toContain(second.scim_token);
  });

  it("the last SCIM calls are the connection's scim.* events, newest first, and no other connection's", async () => {
    const s = await ssoSetup();
    const c: Connection = await ok("/sso/connections", { ...s.p.admin, body: samlConnection(s.teamId) }, 201);
    const other: Connection = await ok(
      "/sso/connections",
      { ...s.p.admin, body: samlConnection(s.teamId, { display_name: "Other" }) },
      201,
    );
    // What the SCIM server records for each call (its events, worker/services/scim): rows as it writes them.
    const insert = (id: string, type: string, connectionId: string, at: number) =>
      env.DB.prepare("INSERT INTO events (id, project_id, type, created_at, actor_type, team_id, data) VALUES (?, ?, ?, ?, 'system', ?, ?)")
        .bind(id, s.p.projectId, type, at, s.teamId, JSON.stringify({ connection_id: connectionId, identity_id: "i1" }))
        .run();
    const now = Date.now();
    await insert(crypto.randomUUID(), "scim.user_created", c.id, now - 3000);
    await insert(crypto.randomUUID(), "scim.user_deactivated", c.id, now - 1000);
    await insert(crypto.randomUUID(), "scim.user_created", other.id, now - 2000);
    const calls = await ok(`/sso/connections/${c.id}/scim-calls`, s.asAdmin);
    expect(calls.items.map((e: { type: string }) => e.type)).toEqual(["scim.user_deactivated", "scim.user_created"]);
    expect(calls.items.every((e: { data: { connection_id: string } }) => e.data.connection_id === c.id)).toBe(true);
  });
});

describe("SSO connections: change and delete", () => {
  it("a change merges the given fields, writes sso_connection.updated naming them, and keeps the rest", async () => {
    const s = await ssoSetup();
    const c: Connection = await ok("/sso/connections", { ...s.p.admin, body: samlConnection(s.teamId) }, 201);
    const changed: Connection = await ok(`/sso/connections/${c.id}`, {
      ...s.asAdmin,
      method: "PATCH",
      body: {
        display_name: "Acme Okta (prod)",
        allow_idp_initiated: true,
        saml: { require_signed_response: true, clock_skew_seconds: 30 },
        attribute_mapping: { email: "mail" },
      },
    });
    expect(changed).toMatchObject({
      display_name: "Acme Okta (prod)",
      allow_idp_initiated: true,
      saml: { idp_entity_id: "https://idp.acme.example/saml", require_signed_response: true, clock_skew_seconds: 30 },
      attribute_mapping: { email: "mail", name: null, groups: null },
    });
    expect(changed.updated_at_millis).toBeGreaterThan(c.updated_at_millis);
    const [event] = await eventsOf(s, "sso_connection.updated");
    expect(event?.data).toMatchObject({
      connection_id: c.id,
      fields: ["display_name", "allow_idp_initiated", "saml", "attribute_mapping"],
    });
  });

  it("concurrent changes of different fields all land (compare-and-set on updated_at, re-read and merged again)", async () => {
    const s = await ssoSetup();
    const c: Connection = await ok("/sso/connections", { ...s.p.admin, body: samlConnection(s.teamId) }, 201);
    const changes: Record<string, unknown>[] = [
      { display_name: "Renamed" },
      { allow_idp_initiated: true },
      { saml: { require_signed_response: true } },
      { saml: { sign_authn_requests: true } },
      { saml: { clock_skew_seconds: 42 } },
      { attribute_mapping: { email: "mail" } },
      { attribute_mapping: { groups: "memberOf" } },
      { scim_group_mapping: [{ group: "Admins", permission_ids: ["$update_team"] }] },
    ];
    const results = await Promise.all(changes.map((body) => call(`/sso/connections/${c.id}`, { ...s.p.admin, method: "PATCH", body })));
    for (const r of results) expect(r.status, r.text).toBe(200);
    const final: Connection = await ok(`/sso/connections/${c.id}`, s.p.admin);
    expect(final).toMatchObject({
      display_name: "Renamed",
      allow_idp_initiated: true,
      saml: {
        require_signed_response: true,
        sign_authn_requests: true,
        clock_skew_seconds: 42,
        idp_entity_id: "https://idp.acme.example/saml",
      },
      attribute_mapping: { email: "mail", name: null, groups: "memberOf" },
      scim: { group_mapping: [{ group: "Admins", permission_ids: ["$update_team"] }] },
    });
    // One event per landed change, each in the batch of its write.
    expect(await eventsOf(s, "sso_connection.updated")).toHaveLength(changes.length);
  });

  it("only back ends map SCIM groups to team permissions; a team admin's mapping is refused", async () => {
    const s = await ssoSetup();
    const c: Connection = await ok("/sso/connections", { ...s.p.admin, body: samlConnection(s.teamId) }, 201);
    const mapping = [{ group: "Engineering", permission_ids: ["$read_members", "$invite_members"] }];
    const byAdmin = await call(`/sso/connections/${c.id}`, { ...s.asAdmin, method: "PATCH", body: { scim_group_mapping: mapping } });
    expect(byAdmin.status).toBe(400);
    expect(byAdmin.body).toMatchObject({ code: "SSO_CONNECTION_INVALID_CONFIG", details: { field: "scim_group_mapping" } });
    const byOwner: Connection = await ok(`/sso/connections/${c.id}`, {
      ...s.p.admin,
      method: "PATCH",
      body: { scim_group_mapping: mapping },
    });
    expect(byOwner.scim.group_mapping).toEqual(mapping);
    expect(JSON.parse((await storedConnection(c.id))?.scim_group_mapping)).toEqual({ Engineering: ["$read_members", "$invite_members"] });
  });

  it("deleting a connection removes its identities by cascade but never the users; its domains stay claimed", async () => {
    const s = await ssoSetup();
    const c: Connection = await ok("/sso/connections", { ...s.p.admin, body: samlConnection(s.teamId) }, 201);
    const now = Date.now();
    // An identity as the SSO sign-in or SCIM makes it (services/sso, services/scim).
    await env.DB.prepare(
      "INSERT INTO sso_identities (id, project_id, connection_id, user_id, subject, user_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    )
      .bind(crypto.randomUUID(), s.p.projectId, c.id, s.member.userId, "subject-1", s.member.email, now, now)
      .run();
    const domain = await ok("/sso/domains", { ...s.p.admin, body: { team_id: s.teamId, domain: `deleted-${now}.example` } }, 201);
    await ok(`/sso/domains/${domain.id}`, { ...s.p.admin, method: "PATCH", body: { connection_id: c.id } });

    await ok(`/sso/connections/${c.id}`, { ...s.asAdmin, method: "DELETE" });
    const identities = await env.DB.prepare("SELECT count(*) AS n FROM sso_identities WHERE connection_id = ?")
      .bind(c.id)
      .first<{ n: number }>();
    expect(identities?.n).toBe(0);
    expect((await call(`/users/${s.member.userId}`, s.p.server)).status).toBe(200);
    const members = await ok(`/team-member-profiles?team_id=${s.teamId}`, s.p.server);
    expect(members.items.map((m: { user_id: string }) => m.user_id)).toContain(s.member.userId);
    const domains = await ok(`/sso/domains?team_id=${s.teamId}`, s.p.admin);
    expect(domains.items).toMatchObject([{ id: domain.id, connection_id: null }]);
    expect((await call(`/sso/connections/${c.id}`, s.p.admin)).body.code).toBe("SSO_CONNECTION_NOT_FOUND");
    const again = await call(`/sso/connections/${c.id}`, { ...s.p.admin, method: "DELETE" });
    expect(again.status).toBe(404);
    expect(await eventsOf(s, "sso_connection.deleted")).toHaveLength(1);
  });
});
