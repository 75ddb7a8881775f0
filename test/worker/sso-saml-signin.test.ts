/**
 * SAML SSO sign-in end to end inside workerd (issue 31, SAML) against the samlify IdP (test/saml-idp.mjs):
 * SP-initiated (authorize → the IdP parses our AuthnRequest, shows its form, auto-posts a signed response
 * → our ACS → the app's code → tokens), with signed AuthnRequests too; IdP-initiated (bounced to the hosted
 * sign-in page, or refused when the connection does not allow it); the metadata route (read back by samlify
 * and by parseIdpMetadata on samlify's IdP metadata); unknown and disabled connections.
 */
import { env } from "cloudflare:test";
import { DOMParser, type Element } from "@xmldom/xmldom";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { parseIdpMetadata } from "../../worker/services/sso/saml/idp-metadata";
import { call } from "../helpers/api";
import { exchangeCode, fetchWorker, randomVerifier, s256 } from "../helpers/oauth";
import { insertDomain, type SsoProject, ssoProject, startSso, uniqueDomain } from "../helpers/sso-flow";
import {
  API,
  expectRefused,
  idpKeys,
  idpOrigin,
  idpResponse,
  insertSamlConnection,
  postAcs,
  refusalReasons,
  type SamlConnection,
} from "../helpers/sso-saml";

const hidden = (html: string) =>
  Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
      m[1],
      m[2]!.replace(/&quot;/g, '"').replace(/&amp;/g, "&"),
    ]),
  );

/** Registers the connection's SP metadata (from our metadata route) with the test IdP. */
async function registerSp(connection: SamlConnection): Promise<void> {
  const metadata = await fetchWorker(`${API}/api/v1/auth/sso/saml/${connection.id}/metadata`);
  expect(metadata.status).toBe(200);
  const res = await fetch(`${idpOrigin()}/sps`, { method: "POST", body: JSON.stringify({ metadata: await metadata.text() }) });
  expect(res.status, await res.clone().text()).toBe(200);
  expect(((await res.json()) as { entityId: string }).entityId).toBe(connection.entityId);
}

/** At the IdP: open its SSO URL (it parses our AuthnRequest), sign in as `email`, read the auto-posted form. */
async function loginAtIdp(idpUrl: string, email: string): Promise<{ action: string; SAMLResponse: string; RelayState?: string }> {
  const page = await fetch(idpUrl);
  const html = await page.text();
  expect(page.status, html).toBe(200);
  const form = new URLSearchParams({ ...hidden(html), email, name: "Ada Lovelace" });
  const posted = await fetch(`${idpOrigin()}/login`, { method: "POST", body: form.toString() });
  const autoPost = await posted.text();
  expect(posted.status, autoPost).toBe(200);
  const action = /<form id="saml" method="post" action="([^"]+)"/.exec(autoPost)?.[1] ?? "";
  return { action, ...(hidden(autoPost) as { SAMLResponse: string; RelayState?: string }) };
}

async function spInitiated(p: SsoProject, connection: SamlConnection, email: string, target: { email?: string; connectionId?: string }) {
  const verifier = randomVerifier();
  const idpUrl = await startSso(p.client, { ...target, challenge: await s256(verifier) });
  expect(idpUrl.origin + idpUrl.pathname).toBe(`${idpOrigin()}/sso`);
  const posted = await loginAtIdp(idpUrl.toString(), email);
  expect(posted.action).toBe(connection.acsUrl);
  const acs = await postAcs(connection.id, posted.SAMLResponse, { relayState: posted.RelayState });
  return { verifier, idpUrl, acs };
}

describe("SAML SSO: SP-initiated", () => {
  it("authorize → samlify IdP → ACS → the app's code → tokens; the user, sso.signed_in and amr pwd", async () => {
    const p = await ssoProject();
    const connection = await insertSamlConnection(p);
    await registerSp(connection);
    const domain = uniqueDomain();
    await insertDomain(p, domain);
    const email = `ada@${domain}`;
    const { verifier, idpUrl, acs } = await spInitiated(p, connection, email, { email });
    expect(idpUrl.searchParams.get("SigAlg")).toBeNull();
    expect(acs.status, await acs.clone().text()).toBe(303);
    const location = new URL(acs.headers.get("location") ?? "");
    expect(location.origin + location.pathname).toBe("http://localhost:3000/handler/oauth-callback");
    expect(location.searchParams.get("state")).toBe("outer-state-sso");
    const tokens = await exchangeCode(p.client, location.searchParams.get("code") ?? "", verifier);
    expect(tokens.status, tokens.text).toBe(200);
    const userId = decodeJwt(tokens.body.access_token as string).sub as string;
    const user = await call(`/users/${userId}`, p.server);
    expect(user.body).toMatchObject({ primary_email: email, primary_email_verified: true, display_name: "Ada Lovelace" });
    const events = await call("/internal/events?type=sso.signed_in", p.admin);
    expect(events.body.items[0].data).toMatchObject({ connection_id: connection.id, protocol: "saml", idp_initiated: false });
    // The IdP authenticated with PasswordProtectedTransport: the session's amr is ["pwd"].
    const sessionId = decodeJwt(tokens.body.access_token as string).refresh_token_id as string;
    const row = await env.DB.prepare("SELECT amr FROM sessions WHERE id = ?").bind(sessionId).first<{ amr: string }>();
    expect(JSON.parse(row?.amr ?? "null")).toEqual(["pwd"]);
  });

  it("signed AuthnRequests: SigAlg and Signature over the query, which samlify verifies with the certificate of our metadata", async () => {
    const p = await ssoProject();
    const connection = await insertSamlConnection(p, { signAuthnRequests: true });
    await registerSp(connection);
    const { verifier, idpUrl, acs } = await spInitiated(p, connection, "grace@hopper.example", { connectionId: connection.id });
    expect(idpUrl.searchParams.get("SigAlg")).toBe("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256");
    expect(idpUrl.searchParams.get("Signature")).toBeTruthy();
    expect(acs.status, await acs.clone().text()).toBe(303);
    const code = new URL(acs.headers.get("location") ?? "").searchParams.get("code") ?? "";
    expect((await exchangeCode(p.client, code, verifier)).status).toBe(200);

    // A RelayState swapped in the signed query: samlify refuses the request.
    const another = await startSso(p.client, { connectionId: connection.id });
    another.searchParams.set("RelayState", "x".repeat(45));
    const refused = await fetch(another.toString());
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("AuthnRequest refused");
  });

  it("the response must answer this request: another InResponseTo, a missing RelayState, another connection's RelayState", async () => {
    const p = await ssoProject();
    const connection = await insertSamlConnection(p);
    const idpUrl = await startSso(p.client, { connectionId: connection.id });
    const relayState = idpUrl.searchParams.get("RelayState") ?? "";
    const wrongRequest = await idpResponse(connection, { nameId: "ada@acme.example", inResponseTo: "_another-request" });
    const res = await postAcs(connection.id, wrongRequest.samlResponse, { relayState });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("SSO_REQUEST_INVALID");
    expect((await refusalReasons(p))[0]).toBe("in_response_to_mismatch");

    const solicited = await idpResponse(connection, { nameId: "ada@acme.example", inResponseTo: "_any" });
    expect((await postAcs(connection.id, solicited.samlResponse)).status).toBe(400);
    expect((await refusalReasons(p))[0]).toBe("request_missing");

    const other = await insertSamlConnection(p);
    const otherUrl = await startSso(p.client, { connectionId: other.id });
    const forOther = await idpResponse(connection, { nameId: "ada@acme.example", inResponseTo: "_x" });
    expect(
      (await postAcs(connection.id, forOther.samlResponse, { relayState: otherUrl.searchParams.get("RelayState") ?? "" })).status,
    ).toBe(400);
    expect((await refusalReasons(p))[0]).toBe("request_invalid");
  });
});

describe("SAML SSO: IdP-initiated", () => {
  it("the IdP's unsolicited response is verified, then bounced to the hosted sign-in page, whose SP-initiated sign-in completes", async () => {
    const p = await ssoProject();
    const connection = await insertSamlConnection(p, { allowIdpInitiated: true });
    await registerSp(connection);
    // At the IdP's portal: the app tile (no AuthnRequest), sign in, the form auto-posts to our ACS.
    const posted = await loginAtIdp(`${idpOrigin()}/start?sp=${encodeURIComponent(connection.entityId)}`, "ada@acme.example");
    expect(posted.RelayState).toBeUndefined();
    const acs = await postAcs(connection.id, posted.SAMLResponse);
    expect(acs.status, await acs.clone().text()).toBe(303);
    const bounce = new URL(acs.headers.get("location") ?? "");
    expect(bounce.pathname).toBe(`/p/${p.projectId}/handler/sign-in`);
    expect(bounce.searchParams.get("sso_connection_id")).toBe(connection.id);
    // No session was made by the unsolicited response.
    expect((await call("/internal/events?type=sso.signed_in", p.admin)).body.items).toHaveLength(0);
    // The page starts an SP-initiated sign-in for the connection; the IdP still knows the user.
    const { verifier, acs: second } = await spInitiated(p, connection, "ada@acme.example", {
      connectionId: bounce.searchParams.get("sso_connection_id") ?? "",
    });
    expect(second.status, await second.clone().text()).toBe(303);
    const code = new URL(second.headers.get("location") ?? "").searchParams.get("code") ?? "";
    expect((await exchangeCode(p.client, code, verifier)).status).toBe(200);
  });

  it("an unsolicited response to a connection that does not accept them is refused, and its assertion cannot be reused", async () => {
    const p = await ssoProject();
    const connection = await insertSamlConnection(p);
    const { samlResponse } = await idpResponse(connection, { nameId: "ada@acme.example" });
    const res = await postAcs(connection.id, samlResponse);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("SSO_IDP_INITIATED_NOT_ALLOWED");
    await expectRefused(p, await postAcs(connection.id, samlResponse), "replayed");
  });
});

const MD = "urn:oasis:names:tc:SAML:2.0:metadata";
const DS = "http://www.w3.org/2000/09/xmldsig#";

describe("SAML SSO: metadata", () => {
  it("the SP metadata: entity ID, ACS (HTTP-POST), the connection's certificate for signing and encryption, NameID formats, signing flags", async () => {
    const p = await ssoProject();
    for (const signAuthnRequests of [false, true]) {
      const connection = await insertSamlConnection(p, { signAuthnRequests });
      const res = await fetchWorker(`${API}/api/v1/auth/sso/saml/${connection.id}/metadata`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/samlmetadata\+xml/);
      const doc = new DOMParser().parseFromString(await res.text(), "application/xml");
      const root = doc.documentElement as Element;
      expect(root.getAttribute("entityID")).toBe(connection.entityId);
      const sp = root.getElementsByTagNameNS(MD, "SPSSODescriptor")[0] as Element;
      expect(sp.getAttribute("AuthnRequestsSigned")).toBe(String(signAuthnRequests));
      expect(sp.getAttribute("WantAssertionsSigned")).toBe("true");
      const acs = sp.getElementsByTagNameNS(MD, "AssertionConsumerService")[0] as Element;
      expect(acs.getAttribute("Binding")).toBe("urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST");
      expect(acs.getAttribute("Location")).toBe(connection.acsUrl);
      const certificate = connection.spCertificate.replace(/-----[^-]+-----|\s/g, "");
      const keys = Array.from(sp.getElementsByTagNameNS(MD, "KeyDescriptor") as unknown as Element[]);
      expect(keys.map((k) => k.getAttribute("use"))).toEqual(["signing", "encryption"]);
      for (const k of keys) expect(k.getElementsByTagNameNS(DS, "X509Certificate")[0]?.textContent).toBe(certificate);
      expect(Array.from(sp.getElementsByTagNameNS(MD, "NameIDFormat") as unknown as Element[]).map((f) => f.textContent)).toEqual([
        "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
        "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
        "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified",
      ]);
      // samlify (an independent SAML implementation) reads it back as this SP.
      await registerSp(connection);
    }
  });

  it("parseIdpMetadata reads samlify's IdP metadata: entity ID, HTTP-Redirect SSO URL, signing certificate", async () => {
    const keys = await idpKeys();
    const xml = await (await fetch(`${idpOrigin()}/metadata`)).text();
    const parsed = parseIdpMetadata(xml);
    expect(parsed).toEqual({ ok: true, entityId: keys.entityId, ssoUrl: keys.ssoUrl, certificates: [keys.certificates.main] });
  });
});
