/**
 * An IdP signing certificate as the management API stores it (issue 31, ADMIN): PEM with the
 * standard armour and 64-character lines, from what an IT admin pastes (PEM, or the bare base64 DER
 * that SAML metadata carries). Only the outer shape is checked here (a DER SEQUENCE whose length
 * fills the bytes exactly): whether it verifies a signature is the SAML sign-in's concern.
 */

const MAX_DER_BYTES = 12 * 1024;

function decodeBase64(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** True when `der` is one DER SEQUENCE (tag 0x30) whose encoded length is exactly the rest of the bytes. */
function isDerSequence(der: Uint8Array): boolean {
  if (der.length < 64 || der[0] !== 0x30) return false;
  const first = der[1] ?? 0;
  if (first < 0x80) return first + 2 === der.length;
  const octets = first & 0x7f;
  if (octets < 1 || octets > 3) return false;
  let length = 0;
  for (let i = 0; i < octets; i++) length = length * 256 + (der[2 + i] ?? 0);
  return length + 2 + octets === der.length;
}

/** The certificate as PEM, or null when `text` is not one certificate. */
export function normaliseCertificate(text: string): string | null {
  const body = text
    .replace(/-----BEGIN CERTIFICATE-----/, "")
    .replace(/-----END CERTIFICATE-----/, "")
    .replace(/\s+/g, "");
  if (!body || body.includes("-----")) return null;
  const der = decodeBase64(body);
  if (!der || der.length > MAX_DER_BYTES || !isDerSequence(der)) return null;
  const lines = body.match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----`;
}
