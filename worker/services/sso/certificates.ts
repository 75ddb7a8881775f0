/**
 * An IdP signing certificate as the management API stores it (issue 31, ADMIN): PEM, from what an
 * IT admin pastes (PEM, or the bare base64 DER that SAML metadata carries), accepted only when the
 * SAML sign-in can verify signatures with its key (an RSA or EC P-256/384/521 X.509 certificate).
 */
import { verificationKeyOf } from "./saml/certificates";
import { derToPem, pemToDer } from "./saml/pem";

/** The certificate as PEM, or null when `text` is not one certificate with a usable key. */
export function normaliseCertificate(text: string): string | null {
  const der = pemToDer(text, "CERTIFICATE");
  if (!der) return null;
  const pem = derToPem(der, "CERTIFICATE");
  return verificationKeyOf(pem) ? pem : null;
}
