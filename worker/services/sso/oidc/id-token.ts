/**
 * Validation of an OIDC connection's ID token (issue 31, FLOW; OpenID Connect Core §3.1.3.7) with jose:
 * the signature against the issuer's key set (fetched bounded, kept per isolate, fetched again once for
 * an unknown key id), `iss` = the configured issuer, `aud` containing our client id (and `azp` = it when
 * there are several audiences), `exp`/`iat` with a small skew, `nonce` = the request's. Algorithms: the
 * asymmetric ones the issuer announces; HS* only for a confidential client (keyed by its secret, §10.1),
 * never for a public one (anyone knows its "secret"); `none` never.
 */
import { createLocalJWKSet, decodeProtectedHeader, errors, type JSONWebKeySet, type JWTPayload, jwtVerify } from "jose";
import { IsolateCache } from "../../../lib/isolate-cache";
import { boundedFetch } from "../../../lib/outbound-fetch";
import type { Deps } from "../../deps";
import { oidcBounds, parseJsonObject } from "./bounds";
import type { OidcDiscovery } from "./discovery";

/** Clocks of the IdP and the edge may disagree a little: exp/iat get this much leeway. */
export const ID_TOKEN_SKEW_SECONDS = 60;
/** An ID token issued longer ago than this is stale (it is used at once, in the callback). */
const MAX_AGE_SECONDS = 10 * 60;
const KEY_SET_TTL_MS = 10 * 60 * 1000;
/** A key set younger than this is not fetched again for an unknown key id (bad tokens cannot flood the IdP). */
const REFETCH_COOLDOWN_MS = 30 * 1000;
const ASYMMETRIC = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"];
const SYMMETRIC = ["HS256", "HS384", "HS512"];

type CachedKeySet = { jwks: JSONWebKeySet; fetchedAt: number };
// Bounded: one entry per issuer key set in use on this isolate.
const keySets = new IsolateCache<CachedKeySet>({ ttlMs: KEY_SET_TTL_MS, maxEntries: 256 });

export type IdTokenCheck = { ok: true; claims: JWTPayload } | { ok: false; kind: "unavailable" | "refused"; message: string };

export type IdTokenExpectation = { discovery: OidcDiscovery; clientId: string; clientSecret: string | null; nonce: string };

async function fetchKeySet(deps: Deps, url: string): Promise<CachedKeySet | string> {
  const res = await boundedFetch(url, { headers: { accept: "application/json", "user-agent": "doorman" } }, oidcBounds(deps));
  if (!res.ok) return `key set: ${res.message}`;
  if (res.status !== 200) return `key set answered ${res.status}`;
  const doc = parseJsonObject(res.body);
  if (!doc || !Array.isArray(doc.keys)) return "key set has no keys";
  const entry = { jwks: doc as unknown as JSONWebKeySet, fetchedAt: deps.now() };
  keySets.set(url, entry, deps.now());
  return entry;
}

export async function verifyOidcIdToken(deps: Deps, token: string, expected: IdTokenExpectation): Promise<IdTokenCheck> {
  let alg: string | undefined;
  try {
    alg = decodeProtectedHeader(token).alg;
  } catch {
    return { ok: false, kind: "refused", message: "the ID token is not a JWS" };
  }
  const now = deps.now();
  const options = {
    issuer: expected.discovery.issuer,
    audience: expected.clientId,
    requiredClaims: ["exp", "iat", "sub"],
    clockTolerance: ID_TOKEN_SKEW_SECONDS,
    maxTokenAge: MAX_AGE_SECONDS,
    currentDate: new Date(now),
  };
  try {
    let payload: JWTPayload;
    if (alg && SYMMETRIC.includes(alg)) {
      // A public client has no secret to key an HMAC: such a token could be minted by anyone.
      if (!expected.clientSecret) return { ok: false, kind: "refused", message: `alg ${alg} with a public client` };
      ({ payload } = await jwtVerify(token, new TextEncoder().encode(expected.clientSecret), { ...options, algorithms: [alg] }));
    } else {
      const announced = expected.discovery.idTokenAlgs.filter((a) => ASYMMETRIC.includes(a));
      if (!alg || !announced.includes(alg)) return { ok: false, kind: "refused", message: `alg ${alg ?? "(none)"} is not accepted` };
      const verified = await verifyWithKeySet(deps, token, expected.discovery.jwksUri, { ...options, algorithms: announced }, now);
      if (!verified.ok) return verified;
      payload = verified.payload;
    }
    return checkBinding(payload, expected);
  } catch (err) {
    return { ok: false, kind: "refused", message: `the ID token was refused: ${err instanceof Error ? err.message : String(err)}` };
  }
}

async function verifyWithKeySet(
  deps: Deps,
  token: string,
  url: string,
  options: Parameters<typeof jwtVerify>[2],
  now: number,
): Promise<{ ok: true; payload: JWTPayload } | Exclude<IdTokenCheck, { ok: true }>> {
  let set = keySets.get(url, now) ?? (await fetchKeySet(deps, url));
  if (typeof set === "string") return { ok: false, kind: "unavailable", message: set };
  for (;;) {
    try {
      const { payload } = await jwtVerify(token, createLocalJWKSet(set.jwks), options);
      return { ok: true, payload };
    } catch (err) {
      // A key id the cached set lacks: the IdP may have rotated its keys since we fetched them.
      if (!(err instanceof errors.JWKSNoMatchingKey) || now - set.fetchedAt < REFETCH_COOLDOWN_MS) throw err;
      const fresh = await fetchKeySet(deps, url);
      if (typeof fresh === "string") return { ok: false, kind: "unavailable", message: fresh };
      set = fresh;
    }
  }
}

/** The request binding: the nonce, and `azp` when the token names several audiences. */
function checkBinding(claims: JWTPayload, expected: IdTokenExpectation): IdTokenCheck {
  // Core §3.1.3.7 (11): the nonce of this request, so a token from another sign-in cannot be replayed here.
  if (claims.nonce !== expected.nonce) return { ok: false, kind: "refused", message: "nonce mismatch" };
  if (Array.isArray(claims.aud) && claims.aud.length > 1 && claims.azp !== expected.clientId)
    return { ok: false, kind: "refused", message: "azp is not our client" };
  if (typeof claims.sub !== "string" || claims.sub.length === 0 || claims.sub.length > 255)
    return { ok: false, kind: "refused", message: "sub is missing or too long" };
  return { ok: true, claims };
}

/** Forgets every cached key set (tests). */
export function forgetOidcKeySets(): void {
  keySets.forgetAll();
}
