/**
 * Encryption at rest for secrets the server must read back (TOTP secrets; later OAuth provider
 * tokens): AES-256-GCM with a key derived from SERVER_SECRET by HKDF. Stored as "v1.<iv>.<data>".
 * `boundTo` (optional) is the GCM additional data: a value sealed for one place opens only there.
 */
import { base64url } from "jose";
import { IsolateCache } from "../lib/isolate-cache";

// Derived from the secret alone (no TTL); the promise is kept, so concurrent callers share one derivation.
const keys = new IsolateCache<Promise<CryptoKey>>({ ttlMs: Number.POSITIVE_INFINITY, maxEntries: 16 });

function keyFor(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret, 0);
  if (!key) {
    key = (async () => {
      const ikm = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), "HKDF", false, ["deriveKey"]);
      return crypto.subtle.deriveKey(
        { name: "HKDF", hash: "SHA-256", salt: new TextEncoder().encode("doorman-at-rest"), info: new TextEncoder().encode("v1") },
        ikm,
        { name: "AES-GCM", length: 256 },
        false,
        ["encrypt", "decrypt"],
      );
    })();
    keys.set(secret, key, 0);
  }
  return key;
}

/** Additional data of a bound value (none when unbound, so older values open as before). */
function gcmParams(iv: Uint8Array, boundTo: string | undefined): SubtleCryptoEncryptAlgorithm {
  return boundTo === undefined ? { name: "AES-GCM", iv } : { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(boundTo) };
}

export async function encryptAtRest(secret: string, plaintext: string, boundTo?: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt(gcmParams(iv, boundTo), await keyFor(secret), new TextEncoder().encode(plaintext));
  return `v1.${base64url.encode(iv)}.${base64url.encode(new Uint8Array(data))}`;
}

/** Decrypts with the current secret, then the previous one (during a rotation); null if neither works. */
export async function decryptAtRest(secrets: string[], stored: string, boundTo?: string): Promise<string | null> {
  const [version, iv, data] = stored.split(".");
  if (version !== "v1" || !iv || !data) return null;
  for (const secret of secrets) {
    try {
      const plain = await crypto.subtle.decrypt(
        gcmParams(new Uint8Array(base64url.decode(iv)), boundTo),
        await keyFor(secret),
        new Uint8Array(base64url.decode(data)),
      );
      return new TextDecoder().decode(plain);
    } catch {
      // Wrong key: try the next one.
    }
  }
  return null;
}

/** The server's sealing secrets: the current one, and the previous one during a rotation. */
export type SealingKeys = { secret: string; previousSecret?: string | null };

/** Opens a sealed value with the current secret, then the previous one; null if neither works (or it was bound elsewhere). */
export function openSealed(keys: SealingKeys, stored: string, boundTo?: string): Promise<string | null> {
  return decryptAtRest(keys.previousSecret ? [keys.secret, keys.previousSecret] : [keys.secret], stored, boundTo);
}
