/**
 * The SAML service provider's own key pair, one per connection (issue 31): RSA-2048 made with WebCrypto
 * and a self-signed X.509 certificate (pkijs) that the SP metadata publishes, so the IdP can encrypt
 * assertions to us and check our signed AuthnRequests. The private key is sealed at rest.
 */
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { encryptAtRest } from "../../../crypto/at-rest";
import type { Deps } from "../../deps";
import { derToPem } from "./pem";

/** The certificate's lifetime: 10 years (IdPs pin it; a rotation is a new connection key, not an expiry). */
const CERTIFICATE_YEARS = 10;

/** What the sealed private key is bound to (GCM additional data), so it opens only as an SP key. */
export const SP_KEY_SEAL_CONTEXT = "sso-saml-sp-key";

export type SpCredentials = { spPrivateKeySealed: string; spCertificate: string };

/** The WebCrypto engine pkijs signs with (the runtime's own: no Node module). */
export function pkiEngine(): pkijs.ICryptoEngine {
  // Cast: pkijs types its engine against the DOM's SubtleCrypto, the worker's types add timingSafeEqual.
  return new pkijs.CryptoEngine({ name: "webcrypto", crypto }) as unknown as pkijs.ICryptoEngine;
}

function nameWithCommonName(commonName: string): pkijs.RelativeDistinguishedNames {
  return new pkijs.RelativeDistinguishedNames({
    typesAndValues: [new pkijs.AttributeTypeAndValue({ type: "2.5.4.3", value: new asn1js.Utf8String({ value: commonName }) })],
  });
}

/** UTCTime up to 2049, GeneralizedTime from 2050 (RFC 5280 §4.1.2.5). */
function certificateTime(date: Date): pkijs.Time {
  return new pkijs.Time({ type: date.getUTCFullYear() < 2050 ? pkijs.TimeType.UTCTime : pkijs.TimeType.GeneralizedTime, value: date });
}

export async function generateSpCredentials(deps: Deps, input: { commonName: string }): Promise<SpCredentials> {
  const keyPair = (await crypto.subtle.generateKey(
    { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
    true,
    ["sign", "verify"],
  )) as CryptoKeyPair;
  const engine = pkiEngine();

  const certificate = new pkijs.Certificate();
  certificate.version = 2;
  // A positive 128-bit serial (top bit cleared): unique enough without a registry (RFC 5280 §4.1.2.2).
  const serial = crypto.getRandomValues(new Uint8Array(16));
  serial[0] = (serial[0] ?? 0) & 0x7f;
  certificate.serialNumber = new asn1js.Integer({ valueHex: serial });
  certificate.issuer = nameWithCommonName(input.commonName);
  certificate.subject = nameWithCommonName(input.commonName);
  const notBefore = new Date(deps.now());
  const notAfter = new Date(notBefore);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + CERTIFICATE_YEARS);
  certificate.notBefore = certificateTime(notBefore);
  certificate.notAfter = certificateTime(notAfter);
  await certificate.subjectPublicKeyInfo.importKey(keyPair.publicKey, engine);
  await certificate.sign(keyPair.privateKey, "SHA-256", engine);
  const certificateDer = new Uint8Array(certificate.toSchema(true).toBER(false));

  const pkcs8 = new Uint8Array((await crypto.subtle.exportKey("pkcs8", keyPair.privateKey)) as ArrayBuffer);
  return {
    // Sealed (AES-GCM, SERVER_SECRET) and bound to its purpose: a D1 dump alone does not give the key away.
    spPrivateKeySealed: await encryptAtRest(deps.tokenKeys.secret, derToPem(pkcs8, "PRIVATE KEY"), SP_KEY_SEAL_CONTEXT),
    spCertificate: derToPem(certificateDer, "CERTIFICATE"),
  };
}
