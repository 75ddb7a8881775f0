/** SHA-256 hashing and constant-time comparison for secrets stored at rest. */

const encoder = new TextEncoder();

/** "00" … "ff": every request hashes its key (and a refresh its token), so no per-byte toString and padStart. */
const HEX_BYTES = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let out = "";
  for (let i = 0; i < view.length; i++) out += HEX_BYTES[view[i]!];
  return out;
}

/** Hex SHA-256. High-entropy secrets (keys, refresh tokens, codes) need no salt or stretching. */
export async function sha256Hex(value: string): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", encoder.encode(value)));
}

/** Compares two strings without an early exit, so timing does not reveal the matching prefix. */
export function constantTimeEqual(a: string, b: string): boolean {
  const ab = encoder.encode(a);
  const bb = encoder.encode(b);
  let diff = ab.length ^ bb.length;
  const len = Math.max(ab.length, bb.length);
  for (let i = 0; i < len; i++) diff |= (ab[i] ?? 0) ^ (bb[i] ?? 0);
  return diff === 0;
}
