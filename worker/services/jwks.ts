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

type Entry = { doc: JwksDocument; checkedAt: number };
const cache = new Map<string, Entry>();

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
  const now = deps.now();
  const hit = cache.get(cacheKey);
  if (hit && now - hit.checkedAt >= 0 && now - hit.checkedAt < JWKS_RECHECK_MS) return hit.doc;

  const project = await loadProject(deps, projectId);
  if (!project) {
    cache.delete(cacheKey);
    return null;
  }
  const doc = hit?.doc ?? (await serialise(await buildJwks(secrets, audiences)));
  cache.delete(cacheKey);
  cache.set(cacheKey, { doc, checkedAt: now });
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  return doc;
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
