/**
 * The data vault's client-side encryption (the app's server, never Doorman): the key is hashed and
 * the value encrypted with the app's secret, in the formats of the reference's SDK, so values
 * written by either SDK read back in the other.
 *
 * - key derivation: PBKDF2-SHA-256 (100,000 iterations) of the key, salted with the purpose and the secret;
 * - the hashed key: one more PBKDF2 round of that, with its own purpose (base64);
 * - the value: AES-256-GCM under an HKDF key of the derived key and a random salt, as
 *   `01 00 | salt (16) | iv (12) | ciphertext + tag` (base64).
 */

const KEY_HASH_PURPOSE = "stack-data-vault-client-side-encryption-key-hash";
const DERIVED_KEY_PURPOSE = "stack-data-vault-client-side-encryption-value-encryption-key-hash";
const VALUE_PURPOSE = "stack-data-vault-client-side-encryption-value-encryption-value-encryption";
const DERIVATION_ITERATIONS = 100_000;
const VERSION = [0x01, 0x00] as const;

const utf8 = (s: string) => new TextEncoder().encode(s);

/** Standard base64 with padding (in chunks: a megabyte value must not overflow the call stack). */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** PBKDF2-SHA-256 of `value`, its salt naming the purpose and the extra input (the secret). */
async function iteratedHash(
  purpose: string,
  extra: string,
  value: Uint8Array<ArrayBuffer>,
  iterations: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const salt = utf8(JSON.stringify(["stack-crypto-helper-iterated-hash", purpose, toBase64(new Uint8Array()), toBase64(utf8(extra))]));
  const input = await crypto.subtle.importKey("raw", value, "PBKDF2", false, ["deriveBits"]);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: "PBKDF2", salt, iterations, hash: "SHA-256" }, input, 256));
}

/** The AES-GCM key of one encrypted value: HKDF of the (binary) derived key and the value's salt. */
async function valueKey(secret: Uint8Array<ArrayBuffer>, salt: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  const info = utf8(JSON.stringify(["stack-crypto-helper-derived-symmetric-key", VALUE_PURPOSE, "binary-key", toBase64(salt)]));
  const ikm = await crypto.subtle.importKey("raw", secret, "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey({ name: "HKDF", salt, info, hash: "SHA-256" }, ikm, { name: "AES-GCM", length: 256 }, false, [
    "encrypt",
    "decrypt",
  ]);
}

/** The secret-and-key derived bytes that both the hashed key and the value key come from (the slow step). */
export function deriveVaultKey(secret: string, key: string): Promise<Uint8Array<ArrayBuffer>> {
  return iteratedHash(DERIVED_KEY_PURPOSE, secret, utf8(key), DERIVATION_ITERATIONS);
}

/** The hashed key Doorman stores values under: it cannot be turned back into the key without the secret. */
export async function hashVaultKey(secret: string, derived: Uint8Array<ArrayBuffer>): Promise<string> {
  return toBase64(await iteratedHash(KEY_HASH_PURPOSE, secret, derived, 1));
}

/** The value encrypted so that only a holder of the secret and the key reads it. */
export async function encryptVaultValue(derived: Uint8Array<ArrayBuffer>, value: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const cipher = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await valueKey(derived, salt), utf8(value)));
  const out = new Uint8Array(2 + salt.length + iv.length + cipher.length);
  out.set(VERSION, 0);
  out.set(salt, 2);
  out.set(iv, 18);
  out.set(cipher, 30);
  return toBase64(out);
}

/** The value back; throws when it was not encrypted with this secret and key (or was altered). */
export async function decryptVaultValue(derived: Uint8Array<ArrayBuffer>, encrypted: string): Promise<string> {
  const bytes = fromBase64(encrypted);
  if (bytes.length < 30 || bytes[0] !== VERSION[0] || bytes[1] !== VERSION[1]) throw new Error("Data vault value: unknown format.");
  const salt = bytes.slice(2, 18);
  try {
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.slice(18, 30) }, await valueKey(derived, salt), bytes.slice(30));
    return new TextDecoder().decode(plain);
  } catch (cause) {
    throw new Error("Data vault value does not decrypt: is this the secret it was stored with?", { cause });
  }
}
