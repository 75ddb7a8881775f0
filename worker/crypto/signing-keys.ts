/**
 * ES256 signing keys derived deterministically from SERVER_SECRET, one per audience
 * ("{project}", "{project}:anon", "{project}:restricted"). Nothing to store or rotate by
 * hand: a new secret gives new keys, and SERVER_SECRET_PREVIOUS keeps old tokens verifiable.
 */
import { base64url } from "jose";
import { IsolateCache } from "../lib/isolate-cache";
import { toHex } from "./hash";
import { bigintTo32Bytes, publicPointOf } from "./p256";

export type SigningKey = { kid: string; privateKey: CryptoKey; publicKey: CryptoKey; publicJwk: JsonWebKey };

// Order of the P-256 group; a derived scalar must lie in [1, n-1].
const P256_N = BigInt("0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551");

// The key derives from the secret and audience alone, so an entry never goes stale (no TTL); the
// promise itself is kept, so concurrent callers share one derivation. Bounded: three audiences a project.
const cache = new IsolateCache<Promise<SigningKey>>({ ttlMs: Number.POSITIVE_INFINITY, maxEntries: 10_000 });

async function deriveScalar(secret: string, audience: string): Promise<Uint8Array> {
  const ikm = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), "HKDF", false, ["deriveBits"]);
  for (let counter = 0; ; counter++) {
    const bits = await crypto.subtle.deriveBits(
      {
        name: "HKDF",
        hash: "SHA-256",
        salt: new TextEncoder().encode("doorman-jwt-es256"),
        info: new TextEncoder().encode(`${audience}#${counter}`),
      },
      ikm,
      256,
    );
    const scalar = BigInt(`0x${toHex(bits)}`);
    if (scalar > 0n && scalar < P256_N) return new Uint8Array(bits);
  }
}

async function buildKey(secret: string, audience: string): Promise<SigningKey> {
  const scalar = await deriveScalar(secret, audience);
  const point = publicPointOf(BigInt(`0x${toHex(scalar)}`));
  const x = base64url.encode(bigintTo32Bytes(point.x));
  const y = base64url.encode(bigintTo32Bytes(point.y));
  const publicJwk: JsonWebKey = { kty: "EC", crv: "P-256", x, y };
  const privateKey = await crypto.subtle.importKey(
    "jwk",
    { ...publicJwk, d: base64url.encode(scalar) },
    { name: "ECDSA", namedCurve: "P-256" },
    false,
    ["sign"],
  );
  const publicKey = await crypto.subtle.importKey("jwk", publicJwk, { name: "ECDSA", namedCurve: "P-256" }, true, ["verify"]);
  const thumb = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${x}.${y}`));
  const kid = base64url.encode(new Uint8Array(thumb)).slice(0, 12);
  return { kid, privateKey, publicKey, publicJwk };
}

/** The signing key for an audience (cached per isolate). */
export function getSigningKey(secret: string, audience: string): Promise<SigningKey> {
  const cacheKey = `${secret.length}:${secret}|${audience}`;
  // Time plays no part (no TTL), so no clock is asked for.
  let key = cache.get(cacheKey, 0);
  if (!key) {
    key = buildKey(secret, audience);
    cache.set(cacheKey, key, 0);
  }
  return key;
}
