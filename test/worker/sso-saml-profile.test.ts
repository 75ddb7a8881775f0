/**
 * The SsoProfile a verified SAML assertion gives (issue 31, SAML), from samlify IdP responses: the default
 * mapping (NameID as email; Entra ID / ADFS claim URIs, `mail`, given name + surname; `groups`, `memberOf`
 * values), a connection's own attribute mapping, a persistent and a transient NameID; and the replay
 * table's clean-up by the daily cron (rows past their assertion's expiry go, live ones stay).
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "../../worker/db/client";
import { recordSamlAssertionUse } from "../../worker/db/queries/saml-assertions";
import { findSsoConnectionById } from "../../worker/db/queries/sso-connections";
import { makeDeps } from "../../worker/services/deps";
import { pruneUsedSamlAssertions } from "../../worker/services/sso/saml/cleanup";
import { verifySamlResponse } from "../../worker/services/sso/saml/verify";
import { ssoProject } from "../helpers/sso-flow";
import { API, idpResponse, insertSamlConnection, type ResponseOptions, type SamlConnection } from "../helpers/sso-saml";

async function profileOf(connection: SamlConnection, o: ResponseOptions) {
  const { samlResponse } = await idpResponse(connection, o);
  const row = await findSsoConnectionById(createDb(env.DB), connection.id);
  if (!row) throw new Error("no connection");
  const result = await verifySamlResponse(makeDeps(env, { origin: API }), row, samlResponse);
  expect(result.ok, JSON.stringify(result)).toBe(true);
  return result.ok ? result.profile : null;
}

const PERSISTENT = "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent";
const TRANSIENT = "urn:oasis:names:tc:SAML:2.0:nameid-format:transient";

describe("SAML attribute mapping", () => {
  it("defaults: the NameID when it is an email, displayName, groups", async () => {
    const connection = await insertSamlConnection(await ssoProject());
    expect(
      await profileOf(connection, { nameId: "ada@acme.example", attributes: { displayName: "Ada Lovelace", groups: ["eng", "admins"] } }),
    ).toEqual({
      subject: "ada@acme.example",
      email: "ada@acme.example",
      displayName: "Ada Lovelace",
      groups: ["eng", "admins"],
    });
  });

  it("defaults with a persistent NameID: Entra ID claim URIs for email, given name + surname, the groups claim and memberOf", async () => {
    const connection = await insertSamlConnection(await ssoProject());
    const profile = await profileOf(connection, {
      nameId: "00u1abcd2EFGH3ijk4x7",
      nameIdFormat: PERSISTENT,
      attributes: {
        "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress": "grace@navy.example",
        "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname": "Grace",
        "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname": "Hopper",
        "http://schemas.microsoft.com/ws/2008/06/identity/claims/groups": ["a1b2", "c3d4"],
        memberOf: ["cn=ops,dc=navy", "a1b2"],
      },
    });
    expect(profile).toEqual({
      subject: "00u1abcd2EFGH3ijk4x7",
      email: "grace@navy.example",
      displayName: "Grace Hopper",
      groups: ["a1b2", "c3d4", "cn=ops,dc=navy"],
    });
  });

  it("`mail` and `cn` when the NameID is no email; no email at all is null", async () => {
    const connection = await insertSamlConnection(await ssoProject());
    expect(
      await profileOf(connection, { nameId: "u-42", nameIdFormat: PERSISTENT, attributes: { mail: "u42@acme.example", cn: "User 42" } }),
    ).toEqual({
      subject: "u-42",
      email: "u42@acme.example",
      displayName: "User 42",
      groups: [],
    });
    expect(await profileOf(connection, { nameId: "u-43", nameIdFormat: PERSISTENT })).toEqual({
      subject: "u-43",
      email: null,
      displayName: null,
      groups: [],
    });
  });

  it("a connection's own mapping is used instead of the defaults (and only it)", async () => {
    const connection = await insertSamlConnection(await ssoProject(), {
      attributeMapping: { email: "corpMail", name: "fullName", groups: "roles" },
    });
    const profile = await profileOf(connection, {
      nameId: "ada@acme.example",
      attributes: { corpMail: "ada.l@corp.example", fullName: "Ada L.", roles: ["r1", "r2"], displayName: "ignored", groups: ["ignored"] },
    });
    expect(profile).toEqual({ subject: "ada@acme.example", email: "ada.l@corp.example", displayName: "Ada L.", groups: ["r1", "r2"] });
    // A mapped attribute that is not an email address gives no email (never the NameID instead).
    expect((await profileOf(connection, { nameId: "ada@acme.example", attributes: { corpMail: "not-an-email" } }))?.email).toBeNull();
  });

  it("a transient NameID (new at every login) is not a subject: the email stands in for it", async () => {
    const connection = await insertSamlConnection(await ssoProject());
    const profile = await profileOf(connection, {
      nameId: "_a3f9e1c7b2",
      nameIdFormat: TRANSIENT,
      attributes: { email: "ada@acme.example" },
    });
    expect(profile).toMatchObject({ subject: "ada@acme.example", email: "ada@acme.example" });
  });
});

describe("SAML used assertion IDs", () => {
  it("the daily clean-up deletes the IDs whose assertion has expired, and only those", async () => {
    const connection = await insertSamlConnection(await ssoProject());
    const db = createDb(env.DB);
    const row = await findSsoConnectionById(db, connection.id);
    const now = Date.now();
    const use = (assertionId: string, expiresAt: number) =>
      recordSamlAssertionUse(db, { connectionId: connection.id, assertionId, projectId: row?.projectId ?? "", expiresAt });
    expect(await use("_old", now - 1_000)).toBe(true);
    expect(await use("_live", now + 600_000)).toBe(true);
    expect(await use("_live", now + 600_000)).toBe(false);
    expect(await pruneUsedSamlAssertions(makeDeps(env, { origin: API, nowMs: now }))).toBeGreaterThanOrEqual(1);
    const left = await env.DB.prepare("SELECT assertion_id FROM saml_used_assertions WHERE connection_id = ?").bind(connection.id).all();
    expect(left.results.map((r) => r.assertion_id)).toEqual(["_live"]);
  });
});
