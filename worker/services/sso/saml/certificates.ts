/**
 * The connection's IdP signing certificates as verification keys (issue 31). The certificate is pinned by
 * the connection's configuration, so its own validity dates and issuer are not consulted (as in SAML
 * metadata trust: the key is what the owner configured); a rotation adds the next certificate beside it.
 */
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { pemToDer } from "./pem";
import type { VerificationKey } from "./xmldsig";

const RSA_ENCRYPTION = "1.2.840.113549.1.1.1";
const EC_PUBLIC_KEY = "1.2.840.10045.2.1";
const CURVES: Record<string, string> = {
  "1.2.840.10045.3.1.7": "P-256",
  "1.3.132.0.34": "P-384",
  "1.3.132.0.35": "P-521",
};

/** The public key of a PEM (or bare base64) certificate; null when it is not an RSA or EC P-256/384/521 certificate. */
export function verificationKeyOf(certificate: string): VerificationKey | null {
  const der = pemToDer(certificate, "CERTIFICATE");
  if (!der) return null;
  try {
    const asn1 = asn1js.fromBER(der);
    if (asn1.offset === -1) return null;
    const cert = new pkijs.Certificate({ schema: asn1.result });
    const info = cert.subjectPublicKeyInfo;
    const spki = new Uint8Array(info.toSchema().toBER(false));
    if (info.algorithm.algorithmId === RSA_ENCRYPTION) return { spki, kind: "RSA", namedCurve: null };
    if (info.algorithm.algorithmId === EC_PUBLIC_KEY && info.algorithm.algorithmParams instanceof asn1js.ObjectIdentifier) {
      const curve = CURVES[info.algorithm.algorithmParams.valueBlock.toString()];
      return curve ? { spki, kind: "ECDSA", namedCurve: curve } : null;
    }
    return null;
  } catch {
    return null;
  }
}

export function verificationKeysOf(certificates: string[]): VerificationKey[] {
  return certificates.map(verificationKeyOf).filter((k): k is VerificationKey => k !== null);
}
