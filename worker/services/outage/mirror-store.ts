/**
 * What a SessionDO keeps in its own storage so that a refresh works while D1 does not (the design:
 * session-mirror.ts). Pure decisions over the object's storage; the object (durable/session-do.ts)
 * calls these and owns the alarm that flushes what the outage left pending.
 */
import type { AccessTokenClaims } from "../../crypto/access-tokens";
import type { NewEvent } from "../../db/queries/events";

/** The session as its object mirrors it (storage key "session"). */
export type MirroredSession = {
  sessionId: string;
  projectId: string;
  userId: string;
  createdAt: number;
  expiresAt: number;
  /** The last use the object knows of (its own outage refreshes; D1 holds the others). */
  lastUsedAt: number;
  /** SHA-256 of the current refresh token. */
  tokenHash: string;
  /** Rotated-out tokens (newest last, at most MAX_RETIRED): inside the grace window they still refresh. */
  retired: { hash: string; at: number }[];
  /** The claims of the last access token (no iat/exp), and their hash (sessions.mirrored_claims in D1). */
  claims: AccessTokenClaims;
  claimsHash: string;
  /** Sticky: once revoked, no later write makes the session live again. */
  revoked: boolean;
};

/** What an outage left for D1 (storage key "pending"): the last-used stamp, or the delete of a revoked session. */
export type PendingFlush = {
  stamp?: { at: number; ipInfo: unknown };
  remove?: { event?: NewEvent };
  attempts: number;
  /** Bumped by every change: a flush clears only the version it wrote. */
  version: number;
};

/** What the worker sends: the session as D1 has it after a create, a refresh whose claims changed, or a rotation. */
export type MirrorSnapshot = Omit<MirroredSession, "retired" | "revoked" | "lastUsedAt"> & { lastUsedAt?: number };

const MAX_RETIRED = 4;

/** The stored record after a snapshot: the token rotated if its hash changed, revocation kept. */
export function applySnapshot(stored: MirroredSession | undefined, snap: MirrorSnapshot, now: number): MirroredSession {
  const retired = stored ? [...stored.retired] : [];
  if (stored && stored.tokenHash !== snap.tokenHash) retired.push({ hash: stored.tokenHash, at: now });
  return {
    ...snap,
    lastUsedAt: Math.max(snap.lastUsedAt ?? 0, stored?.lastUsedAt ?? 0, snap.createdAt),
    retired: retired.slice(-MAX_RETIRED),
    revoked: stored?.revoked ?? false,
  };
}

/** The record after a rotation made inside the object (the claims are unchanged by a rotation). */
export function applyRotation(stored: MirroredSession, newHash: string, now: number): MirroredSession {
  if (stored.tokenHash === newHash) return stored;
  return {
    ...stored,
    tokenHash: newHash,
    lastUsedAt: Math.max(stored.lastUsedAt, now),
    retired: [...stored.retired, { hash: stored.tokenHash, at: now }].slice(-MAX_RETIRED),
  };
}

/** A revocation of every session of a user (or project) made before `before`, but `keep` (revocation-cuts.ts). */
export type RevocationCut = { before: number; keep?: string | null };

export type OutageRefreshCheck = {
  tokenHash: string;
  projectId: string;
  now: number;
  /** The project's absolute lifetime as a time: sessions created at or before it have ended (-1: none). */
  bornAfter: number;
  graceMs: number;
  cuts: (RevocationCut | null)[];
};

/**
 * May this mirrored session refresh now? Expiry, the absolute lifetime, revocation (its own and
 * the user's or project's cuts) and the token (current, or rotated out within the grace window).
 * Why the idle timeout is not checked: the object does not see the refreshes D1 served (that would
 * cost the hot path a Durable Object call), so its last use is stale; D1 checks it again when back.
 */
export function mayRefresh(s: MirroredSession, check: OutageRefreshCheck): boolean {
  if (s.revoked || s.projectId !== check.projectId) return false;
  if (s.expiresAt <= check.now || s.createdAt <= check.bornAfter) return false;
  for (const cut of check.cuts) if (cut && s.createdAt <= cut.before && cut.keep !== s.sessionId) return false;
  if (s.tokenHash === check.tokenHash) return true;
  // A rotated-out token past the grace window is refused (D1's reuse detection revokes the session when back).
  return s.retired.some((r) => r.hash === check.tokenHash && check.now - r.at <= check.graceMs);
}

/** The first flush is tried after this, then each retry waits twice as long, up to FLUSH_MAX_DELAY_MS. */
export const FLUSH_FIRST_DELAY_MS = 5_000;
const FLUSH_MAX_DELAY_MS = 5 * 60_000;

/**
 * Why a sign-out is retried every 2 s for its first minute, then every 30 s: until its delete
 * reaches D1, a refresh D1 serves in an isolate that saw no outage (the others ask the object,
 * deadline.ts POST_OUTAGE_CHECK_MS) would still find the row. Stamps can wait longer.
 */
const REMOVE_RETRY_MS = 2_000;
const REMOVE_FAST_ATTEMPTS = 30;
const REMOVE_SLOW_RETRY_MS = 30_000;

/** When the alarm tries again after `attempts` failed flushes. */
export function nextFlushAt(now: number, pending: PendingFlush): number {
  if (pending.remove) return now + (pending.attempts < REMOVE_FAST_ATTEMPTS ? REMOVE_RETRY_MS : REMOVE_SLOW_RETRY_MS);
  return now + Math.min(FLUSH_MAX_DELAY_MS, FLUSH_FIRST_DELAY_MS * 2 ** pending.attempts);
}
