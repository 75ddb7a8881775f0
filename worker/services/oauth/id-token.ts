/**
 * Verifying a provider's OpenID Connect ID token (Apple's, the only one Doorman reads): the signature
 * against the provider's published key set, `iss`, `aud` (this project's client id) and `exp`
 * (ASVS 6.8.2, 10.5.4). TLS to the token endpoint alone is not enough: a token that is not signed by
 * the provider, or was issued to another client, must never sign anyone in.
 *
 * The key set is fetched with the OAuth bounds (boundedFetch) and kept per isolate for a few minutes;
 * a token naming a key the cached set lacks (the provider rotated its keys) fetches the set again,
 * at most once per cooldown. Results are values, never throws: the caller picks its error, told
 * apart by `kind` (the key set could not be had, or the token was refused).
 */
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, errors, type JSONWebKeySet, type JWTPayload, jwtVerify } from "jose";
import { IsolateCache } from "../../lib/isolate-cache";
import { boundedFetch, type OutboundBounds } from "../../lib/outbound-fetch";

/** Who must have issued the token, where its keys are, and who it must be for (one of them, for a list). */
export type IdTokenExpectation = { issuer: string; jwksUrl: string; audience: string | string[] };

export type IdTokenResult = { ok: true; claims: JWTPayload } | { ok: false; kind: "key_set" | "refused"; message: string };

/** How long a fetched key set is used before it is fetched again. */
export const KEY_SET_TTL_MS = 10 * 60 * 1000;
/** A key set younger than this is not fetched again for an unknown key id (a flood of bad tokens cannot flood the provider). */
const REFETCH_COOLDOWN_MS = 30 * 1000;
// Bounded: one entry per provider key-set URL (today one, Apple's).
const MAX_KEY_SETS = 16;
const ALGORITHMS = ["RS256", "ES256"];

type CachedKeySet = { jwks: JSONWebKeySet; fetchedAt: number };
const keySets = new IsolateCache<CachedKeySet>({ ttlMs: KEY_SET_TTL_MS, maxEntries: MAX_KEY_SETS });

async function fetchKeySet(url: string, bounds: OutboundBounds, now: number): Promise<CachedKeySet | string> {
  const host = new URL(url).host;
  const res = await boundedFetch(url, { headers: { accept: "application/json", "user-agent": "doorman" } }, bounds);
  if (!res.ok) return `${host} key set: ${res.message}`;
  if (res.status !== 200) return `${host} key set answered ${res.status}`;
  let jwks: unknown;
  try {
    jwks = JSON.parse(res.body);
  } catch {
    return `${host} key set is not JSON`;
  }
  if (!jwks || typeof jwks !== "object" || !Array.isArray((jwks as JSONWebKeySet).keys)) return `${host} key set has no keys`;
  const entry = { jwks: jwks as JSONWebKeySet, fetchedAt: now };
  keySets.set(url, entry, now);
  return entry;
}

/** The cached key set while fresh (a clock moved backwards is not fresh), else a fetched one. */
async function keySet(url: string, bounds: OutboundBounds, now: number): Promise<CachedKeySet | string> {
  const cached = keySets.get(url, now);
  if (cached) return cached;
  return fetchKeySet(url, bounds, now);
}

async function verifyWith(token: string, jwks: JSONWebKeySet, expected: IdTokenExpectation, now: number): Promise<IdTokenResult> {
  const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
    issuer: expected.issuer,
    audience: expected.audience,
    algorithms: ALGORITHMS,
    requiredClaims: ["exp", "sub"],
    currentDate: new Date(now),
  });
  return { ok: true, claims: payload };
}

function isWellFormed(token: string): boolean {
  try {
    const header = decodeProtectedHeader(token);
    decodeJwt(token);
    return typeof header.alg === "string" && ALGORITHMS.includes(header.alg);
  } catch {
    return false;
  }
}

/** Verifies `token` against the expectation at the injected clock `now`. */
export async function verifyIdToken(
  token: string,
  expected: IdTokenExpectation,
  bounds: OutboundBounds,
  now: number,
): Promise<IdTokenResult> {
  // Not even a signed JWT with an accepted algorithm: refused without reaching out for keys.
  if (!isWellFormed(token))
    return { ok: false, kind: "refused", message: `the ID token is malformed or its alg is not ${ALGORITHMS.join("/")}` };
  let set = await keySet(expected.jwksUrl, bounds, now);
  if (typeof set === "string") return { ok: false, kind: "key_set", message: set };
  for (;;) {
    try {
      return await verifyWith(token, set.jwks, expected, now);
    } catch (err) {
      // A key id the cached set lacks: the provider may have rotated its keys since we fetched them.
      const rotated = err instanceof errors.JWKSNoMatchingKey && now - set.fetchedAt >= REFETCH_COOLDOWN_MS;
      if (!rotated)
        return { ok: false, kind: "refused", message: `the ID token was refused: ${err instanceof Error ? err.message : String(err)}` };
      const fresh = await fetchKeySet(expected.jwksUrl, bounds, now);
      if (typeof fresh === "string") return { ok: false, kind: "key_set", message: fresh };
      set = fresh;
    }
  }
}

/** Forgets every cached key set (tests). */
export function forgetKeySets(): void {
  keySets.forgetAll();
}
