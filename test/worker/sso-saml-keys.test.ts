/**
 * The SAML SP key pair and IdP metadata reader (issue 31), inside workerd: generateSpCredentials makes an
 * RSA-2048 key (sealed PKCS#8 PEM that opens only as an SP key) and a self-signed 10-year certificate whose
 * public key verifies what the private key signs; parseIdpMetadata reads entityID, the HTTP-Redirect SSO
 * URL and signing certificates, and refuses a DOCTYPE, a missing binding, a missing certificate.
 */
import { env } from "cloudflare:test";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { describe, expect, it } from "vitest";
import { openSealed } from "../../worker/crypto/at-rest";
import { makeDeps } from "../../worker/services/deps";
import { parseIdpMetadata } from "../../worker/services/sso/saml/idp-metadata";
import { derToPem, pemToDer } from "../../worker/services/sso/saml/pem";
import { generateSpCredentials, pkiEngine, SP_KEY_SEAL_CONTEXT } from "../../worker/services/sso/saml/sp-keys";

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const deps = () => makeDeps(env, { origin: "http://localhost", nowMs: NOW });

describe("generateSpCredentials", () => {
  it("makes a sealed RSA-2048 key and a self-signed 10-year certificate for it", async () => {
    const d = deps();
    const creds = await generateSpCredentials(d, { commonName: "Doorman SAML SP conn_1" });
    expect(creds.spCertificate).toMatch(/^-----BEGIN CERTIFICATE-----\n[A-Za-z0-9+/=\n]+\n-----END CERTIFICATE-----\n$/);
    expect(creds.spPrivateKeySealed).toMatch(/^v1\./);
    expect(creds.spPrivateKeySealed).not.toContain("PRIVATE KEY");

    // The seal opens only with its context.
    expect(await openSealed(d.tokenKeys, creds.spPrivateKeySealed)).toBeNull();
    const pem = await openSealed(d.tokenKeys, creds.spPrivateKeySealed, SP_KEY_SEAL_CONTEXT);
    expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    const privateKey = await crypto.subtle.importKey(
      "pkcs8",
      pemToDer(pem ?? "", "PRIVATE KEY") ?? new Uint8Array(),
      { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
      false,
      ["sign"],
    );

    const der = pemToDer(creds.spCertificate, "CERTIFICATE");
    expect(der).not.toBeNull();
    const cert = new pkijs.Certificate({ schema: asn1js.fromBER(der ?? new Uint8Array()).result });
    const cn = cert.subject.typesAndValues[0];
    expect(cn?.type).toBe("2.5.4.3");
    expect(cn?.value.valueBlock.value).toBe("Doorman SAML SP conn_1");
    expect(cert.notBefore.value.getTime()).toBe(NOW);
    expect(cert.notAfter.value.getUTCFullYear()).toBe(2036);
    // Self-signed: the certificate verifies with its own key.
    expect(await cert.verify(undefined, pkiEngine())).toBe(true);
    const publicKey = await cert.getPublicKey(
      { algorithm: { algorithm: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, usages: ["verify"] } },
      pkiEngine(),
    );
    expect((publicKey.algorithm as RsaHashedKeyAlgorithm).modulusLength).toBe(2048);
    const data = new TextEncoder().encode("signed by the SP");
    const signature = await crypto.subtle.sign("RSASSA-PKCS1-v1_5", privateKey, data);
    expect(await crypto.subtle.verify("RSASSA-PKCS1-v1_5", publicKey, signature, data)).toBe(true);
  });

  it("makes a different key every time", async () => {
    const [a, b] = await Promise.all([
      generateSpCredentials(deps(), { commonName: "a" }),
      generateSpCredentials(deps(), { commonName: "a" }),
    ]);
    expect(a.spCertificate).not.toBe(b.spCertificate);
  });
});

const CERT_B64 = "MIIBszCCAVmgAwIBAgIUQm9ndXMgY2VydCBmb3IgdGVzdHMwCgYIKoZIzj0EAwIwEjEQMA4GA1UEAwwHdGVzdC1pZHA=";
const metadata = (sso: string, keys: string) => `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="https://idp.example.com/metadata">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    ${keys}
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    ${sso}
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
const signingKey = (use: string, cert = CERT_B64) =>
  `<md:KeyDescriptor${use ? ` use="${use}"` : ""}><ds:KeyInfo><ds:X509Data><ds:X509Certificate>\n${cert}\n</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`;
const redirect = `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example.com/sso"/>`;
const post = `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://idp.example.com/sso-post"/>`;

describe("parseIdpMetadata", () => {
  it("reads entityID, the HTTP-Redirect SSO URL and the signing certificates (not the encryption ones)", () => {
    const other = "AAECAwQFBgcICQ==";
    const result = parseIdpMetadata(metadata(post + redirect, signingKey("signing") + signingKey("encryption", other) + signingKey("")));
    expect(result).toEqual({
      ok: true,
      entityId: "https://idp.example.com/metadata",
      ssoUrl: "https://idp.example.com/sso",
      certificates: [derToPem(pemToDer(CERT_B64, "CERTIFICATE") ?? new Uint8Array(), "CERTIFICATE")],
    });
  });

  it("refuses what is not usable metadata", () => {
    const why = (xml: string) => {
      const r = parseIdpMetadata(xml);
      return r.ok ? null : r.why;
    };
    expect(why(metadata(post, signingKey("signing")))).toMatch(/HTTP-Redirect/);
    expect(why(metadata(redirect, signingKey("encryption")))).toMatch(/no signing certificate/);
    expect(why(metadata(redirect, signingKey("signing", "not base64!")))).toMatch(/not base64/);
    expect(why(`<!DOCTYPE x [<!ENTITY a "b">]>${metadata(redirect, signingKey("signing"))}`)).toMatch(/DOCTYPE/);
    expect(why("<md:EntityDescriptor")).toMatch(/well-formed/);
    expect(why("<x/>")).toMatch(/EntityDescriptor/);
    expect(why(metadata(redirect.replace("https://idp.example.com/sso", "javascript:alert(1)"), signingKey("signing")))).toMatch(/http/);
    expect(why("x".repeat(300 * 1024))).toMatch(/too large/);
  });
});
