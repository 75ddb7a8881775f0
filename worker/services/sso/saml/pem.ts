/**
 * PEM and strict base64 for the SAML service provider: certificates and keys as PEM text, bare base64
 * DER certificates as IdPs paste them, and the strict base64 reader the SAMLResponse goes through.
 */

/** Strict standard base64 (whitespace allowed between characters, padding required): anything else is null. */
export function decodeBase64Strict(text: string): Uint8Array<ArrayBuffer> | null {
  const compact = text.replace(/[\r\n\t ]+/g, "");
  if (compact.length === 0 || compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) return null;
  try {
    const binary = atob(compact);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

export function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function derToPem(der: Uint8Array, label: string): string {
  const lines = encodeBase64(der).match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

/** The DER inside a PEM block of `label`, or inside bare base64 (how IdP consoles show certificates); null if neither. */
export function pemToDer(text: string, label: string): Uint8Array<ArrayBuffer> | null {
  const trimmed = text.trim();
  const match = trimmed.match(new RegExp(`^-----BEGIN ${label}-----([A-Za-z0-9+/=\\s]+)-----END ${label}-----$`));
  if (match?.[1] !== undefined) return decodeBase64Strict(match[1]);
  if (trimmed.startsWith("-----")) return null;
  return decodeBase64Strict(trimmed);
}

/** A certificate as the bare base64 of its DER (the form of ds:X509Certificate and of metadata). */
export function certificateBase64(text: string): string | null {
  const der = pemToDer(text, "CERTIFICATE");
  return der ? encodeBase64(der) : null;
}
