/**
 * The user/team API key string (wire-protocol.md §2, the reference's `utils/api-keys.tsx`):
 *
 *   `sk_`|`pk_` + 45 random + 32-hex key id + `user`|`team` + 1 flag char + `574ck4u7h` + 8-hex crc32
 *
 * The fixed marker and the trailing checksum let secret scanners (GitHub's partner program and
 * the like) recognise a leaked key with no false positives and no database access; the embedded
 * id and type let the server tell a user key from a team key before any lookup. The flag char is
 * one lowercase Crockford-base32 digit: bit 0 set = not Stack's cloud (always, for Doorman),
 * bit 1 set = public key.
 */

export type ApiKeyType = "user" | "team";

export type ParsedApiKey = { id: string; type: ApiKeyType; isPublic: boolean };

export const API_KEY_MARKER = "574ck4u7h";
const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";
const NOT_CLOUD_FLAG = 1;
const PUBLIC_FLAG = 2;

const KEY_PATTERN = new RegExp(`^(sk|pk)_([0-9a-z]{45})([0-9a-f]{32})(user|team)([0-9a-z])${API_KEY_MARKER}([0-9a-f]{8})$`);

let crcTable: Uint32Array | null = null;

/** CRC-32 (IEEE 802.3, the polynomial of zip/PNG and npm `crc`), unsigned. */
export function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const b of bytes) crc = (crcTable[(crc ^ b) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function checksumOf(body: string): string {
  return crc32(new TextEncoder().encode(body)).toString(16).padStart(8, "0");
}

/**
 * Builds a key string for a key row. `secret` is the 45-character random part.
 *
 * @example
 * formatApiKey({ id: crypto.randomUUID(), type: "user", isPublic: false, secret: randomCode(45) }); // "sk_…574ck4u7h1a2b3c4d"
 */
export function formatApiKey(input: ParsedApiKey & { secret: string }): string {
  if (!/^[0-9a-z]{45}$/.test(input.secret)) throw new Error("API key secret part must be 45 lowercase base32 characters");
  const idPart = input.id.replace(/-/g, "").toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(idPart)) throw new Error("API key id must be a UUID");
  const flag = CROCKFORD[NOT_CLOUD_FLAG + (input.isPublic ? PUBLIC_FLAG : 0)];
  const body = `${input.isPublic ? "pk" : "sk"}_${input.secret}${idPart}${input.type}${flag}${API_KEY_MARKER}`;
  return `${body}${checksumOf(body)}`;
}

/**
 * Reads a key string: its id, type and visibility, or null when it is not a well-formed key
 * with a correct checksum (such a string cannot be a key we issued, so no lookup is needed).
 */
export function parseApiKey(value: string): ParsedApiKey | null {
  const match = KEY_PATTERN.exec(value);
  if (!match) return null;
  const [, prefix, , idPart, type, flagChar, checksum] = match as unknown as [string, string, string, string, ApiKeyType, string, string];
  if (checksumOf(value.slice(0, -8)) !== checksum) return null;
  const flag = CROCKFORD.indexOf(flagChar);
  const isPublic = (flag & PUBLIC_FLAG) !== 0;
  // The prefix and the flag both say whether the key is public; a key where they disagree is forged.
  if (isPublic !== (prefix === "pk")) return null;
  const id = `${idPart.slice(0, 8)}-${idPart.slice(8, 12)}-${idPart.slice(12, 16)}-${idPart.slice(16, 20)}-${idPart.slice(20)}`;
  return { id, type, isPublic };
}
