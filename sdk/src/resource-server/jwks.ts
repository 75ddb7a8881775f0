/**
 * The signing keys a resource server checks Doorman's tokens with: the issuer's JWKS
 * (`{issuer}/.well-known/jwks.json`), fetched once and cached in memory by jose's remote JWK set
 * (kept `cacheMaxAgeMs`, refetched at most every `cooldownMs` when a token names an unknown key,
 * e.g. after a rotation), or a JWKS the caller already holds. Key sets are shared per URL (and
 * fetch function), so the one-shot `verifyAccessToken` does not refetch on every call.
 */
import { createLocalJWKSet, createRemoteJWKSet, customFetch, type JSONWebKeySet, type JWTVerifyGetKey } from "jose";
import type { FetchLike } from "../interface/http";

export type KeySetOptions = {
  /** A JWKS you already hold: no network at all. */
  jwks?: JSONWebKeySet;
  fetch?: FetchLike;
  /** How long a fetched JWKS is trusted (default 10 min, under the endpoint's cache lifetime). */
  cacheMaxAgeMs?: number;
  /** The least time between two fetches on an unknown key id (default 30 s). */
  cooldownMs?: number;
};

/** At most this many remote key sets per fetch function: a server talks to a handful of issuers. */
const MAX_CACHED_SETS = 32;
/** The owner of the key sets fetched with the global fetch (a custom fetch function owns its own). */
const GLOBAL_FETCH = {};
const shared = /* @__PURE__ */ new WeakMap<object, Map<string, JWTVerifyGetKey>>();

/** The key set for `jwksUrl`: local when `jwks` is given, else a remote set shared by URL. */
export function keySetFor(jwksUrl: string, options: KeySetOptions): JWTVerifyGetKey {
  if (options.jwks) return createLocalJWKSet(options.jwks);
  const owner: object = options.fetch ?? GLOBAL_FETCH;
  const key = `${jwksUrl} ${options.cacheMaxAgeMs ?? ""} ${options.cooldownMs ?? ""}`;
  let sets = shared.get(owner);
  if (!sets) {
    sets = new Map();
    shared.set(owner, sets);
  }
  const known = sets.get(key);
  if (known) return known;
  const fetchImpl = options.fetch;
  const set = createRemoteJWKSet(new URL(jwksUrl), {
    cacheMaxAge: options.cacheMaxAgeMs ?? 10 * 60_000,
    cooldownDuration: options.cooldownMs ?? 30_000,
    ...(fetchImpl ? { [customFetch]: (url: string, init: RequestInit) => fetchImpl(url, init) } : {}),
  });
  // Bounded: the oldest set goes first (a caller that builds issuer URLs from input cannot grow it).
  if (sets.size >= MAX_CACHED_SETS) sets.delete(sets.keys().next().value as string);
  sets.set(key, set);
  return set;
}
