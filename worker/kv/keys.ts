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

/**
 * Development only: the dev inbox, the real (unredacted) messages of emails sent to the dev outbox,
 * `dev-outbox:{project id}:{newest-first stamp}:{email id}` = `{to, subject, html, text, secrets,
 * created_at}`. The stamp (`DEV_INBOX_STAMP_BASE - created_at`, zero-padded) makes KV's
 * lexicographic list newest first; each write prunes the project's keys past `DEV_INBOX_MAX_MESSAGES`
 * (services/email/dev-inbox.ts), so a project keeps a bounded count, each kept one hour at most.
 */
export const DEV_OUTBOX_TTL_S = 3600;
export const DEV_INBOX_MAX_MESSAGES = 50;
const DEV_INBOX_STAMP_BASE = 9_999_999_999_999;

/** The prefix of one project's dev inbox (a project id never contains ":"). */
export function devInboxPrefix(projectId: string): string {
  return `dev-outbox:${projectId}:`;
}

export function devOutboxKey(projectId: string, createdAt: number, emailId: string): { key: string; ttl: number } {
  const stamp = String(Math.max(0, DEV_INBOX_STAMP_BASE - createdAt)).padStart(13, "0");
  return { key: `${devInboxPrefix(projectId)}${stamp}:${emailId}`, ttl: DEV_OUTBOX_TTL_S };
}

/** The email id at the end of a dev inbox key. */
export function emailIdOfDevInboxKey(key: string): string {
  return key.slice(key.lastIndexOf(":") + 1);
}

/**
 * D1 outage (services/outage/): the last-known-good project row and valid key hashes,
 * `outage:auth:{project id}` = `{row, keys: ["{kind}:{sha256}"]}`, read only when D1 fails; written
 * only when it changed. No TTL: an outage may come long after the project's last change.
 */
export function outageAuthKey(projectId: string): string {
  return `outage:auth:${projectId}`;
}

/**
 * D1 outage: a revocation of many sessions at once, `outage:cut:user:{user id}` or
 * `outage:cut:project:{project id}` = `{before, keep}` (sessions created at or before `before`, but
 * `keep`, have ended). Kept longer than any session lives (367 days).
 */
export const OUTAGE_CUT_TTL_S = 400 * 24 * 3600;

export function outageCutKey(scope: "user" | "project", id: string): string {
  return `outage:cut:${scope}:${id}`;
}
