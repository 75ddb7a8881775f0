/**
 * The SAML ACS's checks (issue 31, SAML) against responses the samlify IdP (test/saml-idp.mjs) builds and
 * signs with its own keys: what passes (assertion signed, Response signed, both, RSA-SHA512, ECDSA, a
 * rotated certificate, times within the skew), and each refusal with its sso.sign_in_refused reason: an
 * unsigned response, requireSignedResponse, a wrong certificate (its own in KeyInfo), SHA-1, a wrong
 * issuer, audience, destination and recipient, expired and not yet valid, a replay (also concurrent),
 * a DOCTYPE, a comment in the NameID, a failed status, bad encodings; unknown and disabled connections.
 * These responses are unsolicited (IdP-initiated): a passing one is bounced to the hosted sign-in page.
 */
import { describe, expect, it } from "vitest";
import { fetchWorker } from "../helpers/oauth";
import { type SsoProject, ssoProject } from "../helpers/sso-flow";
import {
  API,
  expectRefused,
  idpKeys,
  idpResponse,
  insertSamlConnection,
  postAcs,
  type ResponseOptions,
  refusalReasons,
  type SamlConnection,
  toBase64,
} from "../helpers/sso-saml";

const user: ResponseOptions = { nameId: "ada@acme.example", attributes: { displayName: "Ada" } };
const iso = (ms: number) => new Date(ms).toISOString();

async function setup(o: Parameters<typeof insertSamlConnection>[1] = {}): Promise<{ p: SsoProject; connection: SamlConnection }> {
  const p = await ssoProject();
  const connection = await insertSamlConnection(p, { allowIdpInitiated: true, ...o });
  return { p, connection };
}

/** A passing unsolicited response: 303 to the hosted sign-in page, which starts an SP-initiated sign-in for the connection. */
async function expectAccepted(res: Response, connection: SamlConnection): Promise<void> {
  expect(res.status, await res.clone().text()).toBe(303);
  const location = new URL(res.headers.get("location") ?? "");
  expect(location.pathname).toMatch(/\/sign-in$/);
  expect(location.searchParams.get("sso_connection_id")).toBe(connection.id);
}

describe("SAML ACS: what passes", () => {
  it("an assertion signed by the IdP (RSA-SHA256), a Response signed instead, and both", async () => {
    const { connection } = await setup();
    for (const signing of [{}, { signAssertion: false, signResponse: true }, { signAssertion: true, signResponse: true }]) {
      const { samlResponse } = await idpResponse(connection, { ...user, ...signing });
      await expectAccepted(await postAcs(connection.id, samlResponse), connection);
    }
  });

  it("RSA-SHA512, ECDSA P-256 (a connection trusting the IdP's EC certificate), and a rotated certificate list", async () => {
    const keys = await idpKeys();
    const { connection } = await setup({ idpCertificates: [keys.certificates.other, keys.certificates.main] });
    await expectAccepted(
      await postAcs(connection.id, (await idpResponse(connection, { ...user, signatureAlgorithm: "rsa-sha512" })).samlResponse),
      connection,
    );
    const ec = (await setup({ idpCertificates: [keys.certificates.ec] })).connection;
    for (const signing of [{}, { signAssertion: false, signResponse: true }]) {
      const { samlResponse, xml } = await idpResponse(ec, { ...user, key: "ec", ...signing });
      expect(xml).toContain("xmldsig-more#ecdsa-sha256");
      await expectAccepted(await postAcs(ec.id, samlResponse), ec);
    }
  });

  it("times within the connection's clock skew pass; beyond it they do not", async () => {
    const { p, connection } = await setup({ clockSkewSeconds: 60 });
    const now = Date.now();
    // Issued 5 minutes ago, valid until 30 s ago: inside a 60 s skew.
    const late = await idpResponse(connection, {
      ...user,
      issueInstant: now - 300_000,
      notBefore: iso(now - 300_000),
      notOnOrAfter: iso(now - 30_000),
    });
    await expectAccepted(await postAcs(connection.id, late.samlResponse), connection);
    // Valid from 30 s from now: inside the skew too.
    const early = await idpResponse(connection, { ...user, notBefore: iso(now + 30_000) });
    await expectAccepted(await postAcs(connection.id, early.samlResponse), connection);
    const tooEarly = await idpResponse(connection, { ...user, notBefore: iso(now + 120_000) });
    await expectRefused(p, await postAcs(connection.id, tooEarly.samlResponse), "not_yet_valid");
  });
});

describe("SAML ACS: refusals", () => {
  it("an unsigned response (neither the assertion nor the Response signed)", async () => {
    const { p, connection } = await setup();
    const { samlResponse, xml } = await idpResponse(connection, { ...user, signAssertion: false, signResponse: false });
    expect(xml).not.toContain("Signature");
    await expectRefused(p, await postAcs(connection.id, samlResponse), "unsigned");
  });

  it("requireSignedResponse refuses an assertion-only signature and takes a signed Response", async () => {
    const { p, connection } = await setup({ requireSignedResponse: true });
    await expectRefused(p, await postAcs(connection.id, (await idpResponse(connection, user)).samlResponse), "response_unsigned");
    await expectAccepted(
      await postAcs(connection.id, (await idpResponse(connection, { ...user, signResponse: true })).samlResponse),
      connection,
    );
  });

  it("a wrong certificate: signed by another key, which the response's own KeyInfo carries, is refused (KeyInfo is never trusted)", async () => {
    const keys = await idpKeys();
    const { p, connection } = await setup();
    for (const signing of [{}, { signAssertion: false, signResponse: true }]) {
      const { samlResponse, xml } = await idpResponse(connection, { ...user, key: "other", ...signing });
      // samlify puts the signing certificate into KeyInfo: a verifier that trusted it would pass this response.
      expect(xml).toContain(keys.certificates.other.replace(/-----[^-]+-----|\s/g, "").slice(0, 60));
      await expectRefused(p, await postAcs(connection.id, samlResponse), "signature_invalid");
    }
    // An EC signature where the connection trusts only the RSA key.
    await expectRefused(
      p,
      await postAcs(connection.id, (await idpResponse(connection, { ...user, key: "ec" })).samlResponse),
      "signature_invalid",
    );
  });

  it("SHA-1 signatures and digests (rsa-sha1 / sha1) are refused", async () => {
    const { p, connection } = await setup();
    const { samlResponse, xml } = await idpResponse(connection, { ...user, signatureAlgorithm: "rsa-sha1" });
    expect(xml).toContain("xmldsig#rsa-sha1");
    expect(xml).toContain("xmldsig#sha1");
    await expectRefused(p, await postAcs(connection.id, samlResponse), "signature_algorithm_refused");
  });

  it("a wrong issuer, audience, destination or recipient", async () => {
    const { p, connection } = await setup();
    const post = async (o: Partial<ResponseOptions>) =>
      postAcs(connection.id, (await idpResponse(connection, { ...user, ...o })).samlResponse);
    await expectRefused(p, await post({ issuer: "https://evil.example/idp" }), "issuer_mismatch");
    await expectRefused(p, await post({ audience: "https://other-sp.example/metadata" }), "audience_mismatch");
    // Another connection's entity ID (same worker): audiences are per connection.
    const other = await insertSamlConnection(p);
    await expectRefused(p, await post({ audience: other.entityId }), "audience_mismatch");
    await expectRefused(p, await post({ destination: other.acsUrl }), "destination_mismatch");
    await expectRefused(p, await post({ recipient: other.acsUrl }), "subject_confirmation_invalid");
    // A response for the other connection posted here fails on the first of them.
    const theirs = await idpResponse(other, user);
    await expectRefused(p, await postAcs(connection.id, theirs.samlResponse), "destination_mismatch");
  });

  it("an expired assertion (Conditions) and an expired bearer confirmation", async () => {
    const { p, connection } = await setup();
    const now = Date.now();
    const expired = await idpResponse(connection, {
      ...user,
      issueInstant: now - 3_600_000,
      notBefore: iso(now - 3_600_000),
      notOnOrAfter: iso(now - 600_000),
    });
    await expectRefused(p, await postAcs(connection.id, expired.samlResponse), "expired");
    const fresh = await idpResponse(connection, { ...user, subjectNotOnOrAfter: iso(now - 600_000), notOnOrAfter: iso(now + 300_000) });
    await expectRefused(p, await postAcs(connection.id, fresh.samlResponse), "subject_confirmation_invalid");
    // One valid for a week: the replay table would have to keep it that long.
    const long = await idpResponse(connection, {
      ...user,
      notOnOrAfter: iso(now + 7 * 86_400_000),
      subjectNotOnOrAfter: iso(now + 7 * 86_400_000),
    });
    await expectRefused(p, await postAcs(connection.id, long.samlResponse), "lifetime_too_long");
    // A valid response posted after its window (the worker's clock moved on; last, as its event is dated then).
    const valid = await idpResponse(connection, user);
    await expectRefused(p, await postAcs(connection.id, valid.samlResponse, { nowMs: now + 3_600_000 }), "expired");
  });

  it("an assertion not yet valid", async () => {
    const { p, connection } = await setup();
    const { samlResponse } = await idpResponse(connection, { ...user, notBefore: iso(Date.now() + 3_600_000) });
    await expectRefused(p, await postAcs(connection.id, samlResponse), "not_yet_valid");
  });

  it("a replayed assertion: the second post is refused; of concurrent posts of one assertion exactly one passes", async () => {
    const { p, connection } = await setup();
    const { samlResponse } = await idpResponse(connection, user);
    await expectAccepted(await postAcs(connection.id, samlResponse), connection);
    await expectRefused(p, await postAcs(connection.id, samlResponse), "replayed");

    const racing = await idpResponse(connection, user);
    const results = await Promise.all(Array.from({ length: 5 }, () => postAcs(connection.id, racing.samlResponse)));
    expect(results.map((r) => r.status).sort()).toEqual([303, 400, 400, 400, 400]);
    expect((await refusalReasons(p)).slice(0, 4)).toEqual(["replayed", "replayed", "replayed", "replayed"]);
  });

  it("the same assertion ID at two connections is no replay (IDs are kept per connection)", async () => {
    const { p, connection } = await setup();
    const other = await insertSamlConnection(p, { allowIdpInitiated: true });
    const assertionId = `_shared-${crypto.randomUUID()}`;
    await expectAccepted(await postAcs(connection.id, (await idpResponse(connection, { ...user, assertionId })).samlResponse), connection);
    await expectAccepted(await postAcs(other.id, (await idpResponse(other, { ...user, assertionId })).samlResponse), other);
  });

  it("a DOCTYPE (entity declarations, XXE) anywhere is refused before parsing", async () => {
    const { p, connection } = await setup();
    const { xml } = await idpResponse(connection, user);
    const internal = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e "evil@evil.example">]>${xml}`;
    await expectRefused(p, await postAcs(connection.id, toBase64(internal)), "response_not_xml");
    const external = `<!DOCTYPE r [<!ENTITY x SYSTEM "http://127.0.0.1:1/x">]>${xml.replace("ada@acme.example", "&x;")}`;
    await expectRefused(p, await postAcs(connection.id, toBase64(external)), "response_not_xml");
    const laughs = `<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>${xml}`;
    await expectRefused(p, await postAcs(connection.id, toBase64(laughs)), "response_not_xml");
  });

  it("a comment inside the signed NameID (exclusive c14n drops it, so the signature still verifies) is refused", async () => {
    const { p, connection } = await setup();
    const { xml } = await idpResponse(connection, { ...user, nameId: "ada@acme.example.evil.example" });
    const truncated = xml.replace(">ada@acme.example.evil.example<", ">ada@acme.example<!---->.evil.example<");
    expect(truncated).not.toBe(xml);
    await expectRefused(p, await postAcs(connection.id, toBase64(truncated)), "comments_not_allowed");
  });

  it("a failed status, bad encodings, a body too large, a missing field: the refusal page", async () => {
    const { p, connection } = await setup();
    const failed = await idpResponse(connection, { ...user, status: "urn:oasis:names:tc:SAML:2.0:status:Responder" });
    await expectRefused(p, await postAcs(connection.id, failed.samlResponse), "idp_status");
    await expectRefused(p, await postAcs(connection.id, "not*base64"), "response_not_base64");
    await expectRefused(p, await postAcs(connection.id, toBase64("<not-closed>")), "response_not_xml");
    await expectRefused(p, await postAcs(connection.id, toBase64("<x:Response xmlns:x='urn:other'/>")), "not_a_response");
    await expectRefused(p, await postAcs(connection.id, btoa("\xff\xfe<")), "response_not_base64");
    // 60 nested elements (a stack overflow in a later walk would be a 500), and 20,000 flat ones (parser CPU): refused at parsing.
    await expectRefused(p, await postAcs(connection.id, toBase64(`${"<a>".repeat(60)}${"</a>".repeat(60)}`)), "response_not_xml");
    await expectRefused(p, await postAcs(connection.id, toBase64(`<a>${"<b/>".repeat(20_000)}</a>`)), "response_not_xml");
    const huge = await postAcs(connection.id, "A".repeat(300 * 1024));
    expect(huge.status).toBe(400);
    expect(await huge.text()).toContain("Error code:");
    const missing = await fetchWorker(`${API}/api/v1/auth/sso/saml/${connection.id}/acs`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "RelayState=x",
    });
    expect(missing.status).toBe(400);
    expect(missing.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await missing.text()).toContain("SCHEMA_ERROR");
  });

  it("an unknown or disabled connection is a 404 page; IdP-initiated to a connection that does not allow it is refused", async () => {
    const { connection } = await setup({ enabled: false });
    const { samlResponse } = await idpResponse(connection, user);
    for (const id of [connection.id, crypto.randomUUID()]) {
      const res = await postAcs(id, samlResponse);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain("SSO_CONNECTION_NOT_FOUND");
      const metadata = await fetchWorker(`${API}/api/v1/auth/sso/saml/${id}/metadata`);
      expect(metadata.status).toBe(404);
    }
    const { p, connection: strict } = await setup({ allowIdpInitiated: false });
    const res = await postAcs(strict.id, (await idpResponse(strict, user)).samlResponse);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("SSO_IDP_INITIATED_NOT_ALLOWED");
    expect((await refusalReasons(p))[0]).toBe("idp_initiated_not_allowed");
  });
});
