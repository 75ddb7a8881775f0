/**
 * SAML SSO sign-in end to end inside workerd (issue 31, SAML) against the samlify IdP (test/saml-idp.mjs):
 * SP-initiated (authorize → the IdP parses our AuthnRequest, shows its form, auto-posts a signed response
 * → our ACS → the app's code → tokens), with signed AuthnRequests too; IdP-initiated (bounced to the hosted
 * sign-in page, or refused when the connection does not allow it); the metadata route (read back by samlify
 * and by parseIdpMetadata on samlify's IdP metadata); unknown and disabled connections.
 */
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { parseIdpMetadata } from "../../worker/services/sso/saml/idp-metadata";
import { call } from "../helpers/api";
import { exchangeCode, fetchWorker, randomVerifier, s256 } from "../helpers/oauth";
import { insertDomain, type SsoProject, ssoProject, startSso, uniqueDomain } from "../helpers/sso-flow";
import { API, idpKeys, idpOrigin, idpResponse, insertSamlConnection, postAcs, type SamlConnection } from "../helpers/sso-saml";

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
  });
});
