/**
 * The public keys of a private_key_jwt client: its registered `jwks`, or the JWKS at its `jwks_uri`,
 * fetched with the webhook URL rules (https, no private or metadata address outside development), a
 * time limit and a size cap, and kept per isolate for a few minutes. A hanging or huge key set costs
 * one token request its time limit, never the isolate others share.
 */
import { createLocalJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from "jose";
import { IsolateCache } from "../../lib/isolate-cache";
import { boundedFetch, type OutboundBounds } from "../../lib/outbound-fetch";
import type { Deps } from "../deps";
import { checkWebhookUrl } from "../webhooks/urls";
import type { OAuthClient } from "./clients";

/** How long a fetched key set is used before it is fetched again. */
export const CLIENT_JWKS_TTL_MS = 5 * 60 * 1000;
/** A key set younger than this is not fetched again for an unknown key id (bad assertions cannot flood the client's server). */
export const CLIENT_JWKS_REFETCH_COOLDOWN_MS = 30 * 1000;
/** A key set is a few keys: 32 KiB is room for dozens. With at most 256 entries, the cache holds at most 8 MiB. */
const MAX_JWKS_BYTES = 32 * 1024;
const MAX_ENTRIES = 256;
/** The bounds of one fetch: the token request waits at most this. */
export const CLIENT_JWKS_BOUNDS: OutboundBounds = { timeoutMs: 5_000, firstByteMs: 3_000, maxBodyBytes: MAX_JWKS_BYTES };

type Fetched = { jwks: JSONWebKeySet; fetchedAt: number };
const cache = new IsolateCache<Fetched>({ ttlMs: CLIENT_JWKS_TTL_MS, maxEntries: MAX_ENTRIES });

export type ClientKeys = { ok: true; keys: JWTVerifyGetKey; fetchedAt: number | null } | { ok: false; message: string };

function keySetOf(value: unknown): JSONWebKeySet | null {
  if (!value || typeof value !== "object" || !Array.isArray((value as JSONWebKeySet).keys)) return null;
  return value as JSONWebKeySet;
}

function localSet(jwks: JSONWebKeySet): JWTVerifyGetKey | null {
  try {
    return createLocalJWKSet(jwks);
  } catch {
    return null;
  }
}

async function fetchKeySet(deps: Deps, url: string): Promise<Fetched | string> {
  const checked = checkWebhookUrl(url, { development: deps.config.environment === "development" });
  if (!checked.ok) return `the client's jwks_uri is not allowed: ${checked.message}`;
  const res = await boundedFetch(checked.url, { headers: { accept: "application/json", "user-agent": "doorman" } }, CLIENT_JWKS_BOUNDS);
  if (!res.ok) return `the client's jwks_uri could not be read: ${res.message}`;
  if (res.status !== 200) return `the client's jwks_uri answered HTTP ${res.status}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.body);
  } catch {
    return "the client's jwks_uri is not JSON";
  }
  const jwks = keySetOf(parsed);
  if (!jwks) return "the client's jwks_uri has no keys";
  return { jwks, fetchedAt: deps.now() };
}

const cacheKey = (projectId: string, client: OAuthClient) => `${projectId}\n${client.clientId}\n${client.jwksUri}`;

/**
 * The client's keys. `fresh` skips the cache (an assertion named a key id the cached set lacks), at
 * most once per cooldown.
 */
export async function clientKeys(
  deps: Deps,
  projectId: string,
  client: OAuthClient,
  options: { fresh?: boolean } = {},
): Promise<ClientKeys> {
  if (client.jwks) {
    const jwks = keySetOf(client.jwks);
    const keys = jwks ? localSet(jwks) : null;
    return keys ? { ok: true, keys, fetchedAt: null } : { ok: false, message: "the client's registered jwks is not a key set" };
  }
  if (!client.jwksUri) return { ok: false, message: "the client has no jwks or jwks_uri" };
  const key = cacheKey(projectId, client);
  const now = deps.now();
  const cached = cache.get(key, now);
  if (cached && !(options.fresh && now - cached.fetchedAt >= CLIENT_JWKS_REFETCH_COOLDOWN_MS)) {
    const keys = localSet(cached.jwks);
    if (keys) return { ok: true, keys, fetchedAt: cached.fetchedAt };
  }
  const fetched = await fetchKeySet(deps, client.jwksUri);
  if (typeof fetched === "string") return { ok: false, message: fetched };
  const keys = localSet(fetched.jwks);
  if (!keys) return { ok: false, message: "the client's jwks_uri is not a key set" };
  cache.set(key, fetched, now);
  return { ok: true, keys, fetchedAt: fetched.fetchedAt };
}
