/** Every KV key is built here, with its TTL. docs/storage.md lists them. */

/** KV's smallest allowed expirationTtl. */
export const KV_MIN_TTL_S = 60;

/**
 * A cached rate-limit refusal: `rl:block:{rule}:{scope hash}` = the epoch ms its window ends. Only a
 * cache: the counters themselves are atomic D1 rows (services/rate-limit.ts). Kept ≥ 60 s.
 */
export function rateLimitBlockKey(bucket: string): { key: string; ttl: (windowSeconds: number) => number } {
  return { key: `rl:block:${bucket}`, ttl: (windowSeconds) => Math.max(KV_MIN_TTL_S, windowSeconds + 1) };
}

/**
 * CLI login state, keyed by the SHA-256 of the polling code: `cli:poll:{sha256(polling_code)}`.
 * Kept `CLI_STATE_GRACE_S` past the login's own expiry, so a late poll can still say "expired".
 */
export const CLI_STATE_GRACE_S = 3600;

function cliTtl(remainingMs: number): number {
  return Math.max(KV_MIN_TTL_S, Math.ceil(Math.max(0, remainingMs) / 1000) + CLI_STATE_GRACE_S);
}

export function cliPollKey(pollingCodeHash: string, remainingMs: number): { key: string; ttl: number } {
  return { key: `cli:poll:${pollingCodeHash}`, ttl: cliTtl(remainingMs) };
}

/** The browser's handle on a CLI login: `cli:login:{sha256(login_code)}` → the polling-code hash. */
export function cliLoginKey(loginCodeHash: string, remainingMs: number): { key: string; ttl: number } {
  return { key: `cli:login:${loginCodeHash}`, ttl: cliTtl(remainingMs) };
}

/** Development only: the real (unredacted) message of an email sent to the dev outbox, `dev-outbox:{email id}`. */
export const DEV_OUTBOX_TTL_S = 3600;

export function devOutboxKey(emailId: string): { key: string; ttl: number } {
  return { key: `dev-outbox:${emailId}`, ttl: DEV_OUTBOX_TTL_S };
}
