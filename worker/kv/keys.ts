/** Every KV key is built here, with its TTL. docs/storage.md lists them. */

/** KV's smallest allowed expirationTtl. */
export const KV_MIN_TTL_S = 60;

/** A rate-limit counter: `rl:{rule}:{scope hash}:{window start}`, kept for its window (≥ 60 s). */
export function rateLimitKey(rule: string, scopeHash: string, windowStart: number, windowSeconds: number): { key: string; ttl: number } {
  return { key: `rl:${rule}:${scopeHash}:${windowStart}`, ttl: Math.max(KV_MIN_TTL_S, windowSeconds + 1) };
}
