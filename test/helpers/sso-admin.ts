/**
 * Test helpers of enterprise SSO management (issue 31, ADMIN): a project with a team, its admin
 * (the creator: team_admin holds $update_team), a plain member and an outsider; calls to the
 * management routes; and the local DoH responder's control API (test/doh-responder.mjs), where a
 * test publishes or removes a domain's TXT record.
 */
import { SSO_SETUP_TOKEN_HEADER, ssoDomainTxtName } from "@doorman/shared/wire-sso";
import { expect, inject } from "vitest";
import { type CallOptions, type CallResult, call, type SignedUp, signUp } from "./api";
import { addMember, asUser, createTeamAs, type TeamProject, teamProject } from "./teams";

/** A self-signed RSA certificate (CN=test-idp.example), as an IdP's signing certificate is pasted. */
export const IDP_CERT = `-----BEGIN CERTIFICATE-----
MIIDFzCCAf+gAwIBAgIUV57dcLWj9jU57skV7Zwb4Y8Q3ycwDQYJKoZIhvcNAQEL
BQAwGzEZMBcGA1UEAwwQdGVzdC1pZHAuZXhhbXBsZTAeFw0yNjExMjgxMjIzMjha
Fw0zNjExMjUxMjIzMjhaMBsxGTAXBgNVBAMMEHRlc3QtaWRwLmV4YW1wbGUwggEi
MA0GCSqGSIb3DQEBAQUAA4IBDwAwggEKAoIBAQC56yuzhPgGp28cAIKSlQJBZw4w
e5qZvabeIr2FAjilbbRgVq8RQCUAJ0KiqJkK7XtKHwHFq8AemMISfJZngd4E1g9K
RPWGn1I3giQypHKsqfA8/09JndS6Z3Fu7XbBPQwOJci42yOmwdYSzF9e5Zl7EQXZ
jpSIYdkXyWuse80uLs3m9ffR/zrXcz41AYqwR2N/X/q0YMc3Aover2+wTFbbfHrO
02SOFeazkF5iKRyKCX5jmKaLF2ppiRcPMc80f0F9ooSjGYRKiJM5UtkUo/nTsSyv
92+lAiMYkOMtHVqxeokaUdKMgNB2iMloF4SbcBvnn2SfjDbbIpitvxMazOEPAgMB
AAGjUzBRMB0GA1UdDgQWBBQdyMYwTRj71BfDNTHDUr1DhiqRJjAfBgNVHSMEGDAW
gBQdyMYwTRj71BfDNTHDUr1DhiqRJjAPBgNVHRMBAf8EBTADAQH/MA0GCSqGSIb3
DQEBCwUAA4IBAQCV/ZKyOLaUXLM4iVDAXD/G4GHJnd0EN8ZJB64m8bcSCY+qv4R1
vrEL83Wkbqb2r0b7CMh+8f27QwZGx/mw3UkDsdcM8wPmUjA5YoyWJc2cAX2g7dM8
jVt82I0220ZObSvrgTRqsGH+QUee+oZbP/ueqlXRdf0doTd5fwmiQPAiW9yQgFEY
+DOE8tKqKA60z4KtLwJbiNlx4Tq9jrrPWM9vVpGqVTKx/dXNuSkGjFsp5Xj8jRSr
ZsAFmFpBjtD4aZ1wC1Wd+MF/7O/Hp63BcavdL/hN88j0eiAccVGUAQwI20LHrG0k
CEOJcQFSWz4IOZeaykaamGU8AZ/6cdoArGCE
-----END CERTIFICATE-----`;

/** An IdP's SAML metadata as Okta or Entra export it (an EntityDescriptor with an IDPSSODescriptor). */
export function idpMetadataXml(entityId = "https://idp.acme.example/metadata"): string {
  const cert = IDP_CERT.replace(/-----[A-Z ]+-----|\s/g, "");
  return `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing">
      <ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${cert}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>
    </md:KeyDescriptor>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://idp.acme.example/sso/post"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.acme.example/sso/redirect"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
}

/** A complete SAML connection body for `teamId`. */
export function samlConnection(teamId: string, extra: Record<string, unknown> = {}) {
  return {
    team_id: teamId,
    protocol: "saml",
    display_name: "Acme Okta",
    saml: { idp_entity_id: "https://idp.acme.example/saml", idp_sso_url: "https://idp.acme.example/sso", idp_certificates: [IDP_CERT] },
    ...extra,
  };
}

export type SsoSetup = {
  p: TeamProject;
  teamId: string;
  /** The team's creator (team_admin: holds $update_team). */
  admin: SignedUp;
  /** A member without permissions. */
  member: SignedUp;
  /** Signed in, in no team. */
  outsider: SignedUp;
  /** Client access as the team admin. */
  asAdmin: CallOptions;
};

export async function ssoSetup(p?: TeamProject): Promise<SsoSetup> {
  const project = p ?? (await teamProject());
  const admin = await signUp(project.client);
  const member = await signUp(project.client);
  const outsider = await signUp(project.client);
  const teamId = await createTeamAs(project, admin, "Acme");
  await addMember(project, teamId, member.userId);
  return { p: project, teamId, admin, member, outsider, asAdmin: asUser(project, admin) };
}

/** A call that must answer `status`; its body. */
export async function ok(path: string, o: CallOptions, status = 200): Promise<CallResult["body"]> {
  const res = await call(path, o);
  expect(res.status, res.text).toBe(status);
  return res.body;
}

/** Client access through a setup link's token (no signed-in user). */
export const withSetupToken = (p: TeamProject, token: string): CallOptions => ({
  ...p.client,
  headers: { [SSO_SETUP_TOKEN_HEADER]: token },
});

/** The token of a setup link's URL (it rides in the fragment). */
export function tokenOfLink(url: string): string {
  const token = new URL(url).hash.replace(/^#token=/, "");
  expect(token).toMatch(/^[0-9a-z]{45}$/);
  return token;
}

async function control(path: string, method: string, body?: unknown): Promise<void> {
  const res = await fetch(`${inject("dohUrl")}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, await res.text()).toBe(200);
}

/** Publishes TXT records at `_doorman-verification.{domain}` (replacing what was there). */
export const publishTxt = (domain: string, values: string[]) =>
  control("/control/records", "PUT", { name: ssoDomainTxtName(domain), values });
/** Removes the domain's verification TXT records (the name answers NXDOMAIN). */
export const removeTxt = (domain: string) => control(`/control/records?name=${encodeURIComponent(ssoDomainTxtName(domain))}`, "DELETE");
/** Makes the resolver misbehave for the domain's record (null: behave again). */
export const dohBehaviour = (domain: string, behaviour: "hang" | "huge" | "servfail" | "http500" | "not-json" | null) =>
  control("/control/behaviour", "PUT", { name: ssoDomainTxtName(domain), behaviour });

let domainCounter = 0;
/** A domain no other test uses. */
export function uniqueDomain(tag = "acme"): string {
  domainCounter++;
  return `${tag}-${Date.now().toString(36)}-${domainCounter}.example`;
}
