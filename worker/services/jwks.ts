/**
 * A project's public signing keys as a JWKS (/projects/{id}/.well-known/jwks.json): one key per
 * audience, for the current server secret and the previous one while tokens signed with it live.
 *
 * The document is cached per isolate, serialised once with its ETag. The keys derive from the
 * server secrets alone (crypto/signing-keys.ts), so an entry is keyed by project id, audiences and
 * a SHA-256 fingerprint of the secrets: a new secret misses the cache by construction. Only the
 * project's existence can change, so an entry is re-checked against D1 after JWKS_RECHECK_MS.
 */
import type { JwksJson } from "@doorman/shared/wire-misc";
import { sha256Hex } from "../crypto/hash";
import { getSigningKey } from "../crypto/signing-keys";
import { IsolateCache } from "../lib/isolate-cache";
import type { Deps } from "./deps";
import { loadProject } from "./seed";

/** Which tokens' keys to include besides the project's own: anonymous users' implies restricted users'. */
export type JwksOptions = { includeAnonymous: boolean; includeRestricted: boolean };

/** The serialised JWKS and its strong ETag (a hash of exactly these bytes). */
export type JwksDocument = { body: string; etag: string };

/** How long an isolate serves a cached JWKS before it asks D1 whether the project still exists. */
export const JWKS_RECHECK_MS = 60_000;
/** Entries per isolate (oldest first out): public keys only, a few hundred bytes each. */
const MAX_ENTRIES = 1000;

/** Stored again at every re-check, so the TTL counts from the last time D1 confirmed the project. */
const cache = new IsolateCache<JwksDocument>({ ttlMs: JWKS_RECHECK_MS, maxEntries: MAX_ENTRIES });

function audiencesFor(projectId: string, options: JwksOptions): string[] {
  const audiences = [projectId];
  // include_anonymous implies restricted (wire §4).
  if (options.includeRestricted || options.includeAnonymous) audiences.push(`${projectId}:restricted`);
  if (options.includeAnonymous) audiences.push(`${projectId}:anon`);
  return audiences;
}

function secretsOf(deps: Deps): string[] {
  return [deps.tokenKeys.secret, ...(deps.tokenKeys.previousSecret ? [deps.tokenKeys.previousSecret] : [])];
}

async function buildJwks(secrets: string[], audiences: string[]): Promise<JwksJson> {
  const keys: JwksJson["keys"] = [];
  for (const secret of secrets) {
    for (const aud of audiences) {
      const key = await getSigningKey(secret, aud);
      keys.push({ ...key.publicJwk, alg: "ES256", kid: key.kid, use: "sig" } as JwksJson["keys"][number]);
    }
  }
  return { keys };
}

/** The serialised JWKS of a project with its ETag (isolate-cached), or null when there is no such project. */
export async function projectJwksDocument(deps: Deps, projectId: string, options: JwksOptions): Promise<JwksDocument | null> {
  const secrets = secretsOf(deps);
  const audiences = audiencesFor(projectId, options);
  // Why a fingerprint: the cache key must change with the secrets, but must not hold them in clear.
  const fingerprint = await sha256Hex(secrets.map((s) => `${s.length}:${s}`).join("|"));
  const cacheKey = `${projectId}|${audiences.join(",")}|${fingerprint}`;
  // Concurrent requests for one document share one re-check.
  const doc = await cache.getOrLoad(cacheKey, deps.now(), async () => {
    if (!(await loadProject(deps, projectId))) {
      cache.forget(cacheKey);
      return undefined;
    }
    // The keys derive from the secrets alone (and are cached themselves): a re-check rebuilds the same bytes.
    return serialise(await buildJwks(secrets, audiences));
  });
  return doc ?? null;
}

async function serialise(jwks: JwksJson): Promise<JwksDocument> {
  const body = JSON.stringify(jwks);
  return { body, etag: `"${(await sha256Hex(body)).slice(0, 32)}"` };
}

/** True when an If-None-Match header names this ETag (weak comparison, RFC 9110 §13.1.2). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}
