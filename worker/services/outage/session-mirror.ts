/**
 * Sessions that survive a D1 outage (issue 32). The design, in one place:
 *
 * 1. The mirror. Each session's SessionDO keeps in its own storage what a refresh needs
 *    (mirror-store.ts): ids, expiry, the current refresh token hash (and the last rotated-out
 *    ones), revocation, and the claims of the last access token. It is written through on every
 *    change: a new session (createSessionForUser, deferred after the answer), a rotation (inside
 *    the object, which runs rotations anyway), a revocation (sign-out and revoke mark the object
 *    first), and a change of the claims. A second object per token hash ("token:<hash>") points
 *    to the session: an outage refresh knows only the token.
 * 2. The steady state costs nothing more. The normal refresh (no rotation) is one D1 batch and no
 *    Durable Object call: the batch's UPDATE … RETURNING also answers `sessions.mirrored_claims`,
 *    the hash of the claims the object holds; only when the new token's claims hash differently
 *    (a renamed user, a new session from before migration 0028) is the object written, after the
 *    answer (deps.defer), and then the hash in D1.
 * 3. The fallback. The D1 step of a refresh gets a deadline (deadline.ts D1_DEADLINE_MS); on a D1
 *    error or a stall the session's object answers from its storage: live, not revoked, not cut
 *    (revocation-cuts.ts), token current → an access token from the stored claims with a new exp.
 *    The object keeps the last-used stamp and flushes it to D1 from its alarm, with backoff.
 * 4. Sign-outs during the outage: the object marks the session revoked at once (an outage refresh
 *    then fails as an unknown refresh token) and deletes the D1 row from its alarm when D1 is back.
 *    Until then, an isolate that saw D1 away in the last minutes asks the object after a refresh D1
 *    answered (signedOutDuringOutage; deadline.ts POST_OUTAGE_CHECK_MS), and a rotation step in the
 *    object refuses a revoked session: the sign-out holds after the outage too.
 * 5. Authenticating the request itself: last-known-auth.ts keeps the project row and the valid key
 *    hashes in KV, read only when D1 fails. /users/me answers from the access token's claims with
 *    `x-doorman-degraded: d1-unavailable` where the project sets `degraded_reads_from_token`.
 * What does not work during an outage is listed in docs/deploy.md ("During a D1 outage").
 */
import { type AccessTokenClaims, signAccessToken } from "../../crypto/access-tokens";
import { sha256Hex } from "../../crypto/hash";
import type { ProjectRow } from "../../db/queries/projects";
import { setMirroredClaims } from "../../db/queries/sessions";
import { sessionLimits } from "../auth/session-policy";
import type { Deps } from "../deps";
import { readProjectConfig } from "../project-config/flat";
import {
  D1Unavailable,
  d1DownInThisRequest,
  databaseUnavailable,
  isD1Failure,
  noteD1Down,
  recentlySawD1Down,
  withD1Deadline,
} from "./deadline";
import type { MirrorSnapshot } from "./mirror-store";

/** How long a rotated-out refresh token still works (the same as sessions.ts ROTATION_GRACE_MS; kept here to avoid a cycle). */
const ROTATION_GRACE_MS = 30_000;

export const sessionObject = (deps: Pick<Deps, "env">, sessionId: string) =>
  deps.env.SESSION_DO.get(deps.env.SESSION_DO.idFromName(sessionId));
export const tokenPointer = (deps: Pick<Deps, "env">, tokenHash: string) =>
  deps.env.SESSION_DO.get(deps.env.SESSION_DO.idFromName(`token:${tokenHash}`));

/** The hash stored as sessions.mirrored_claims. SHA-256, not a fast hash: a display name must not be able to collide claims. */
export function claimsHash(claims: AccessTokenClaims): Promise<string> {
  return sha256Hex(JSON.stringify(claims));
}

/** What a D1 refresh knows of its session, to mirror it when its claims changed. */
export type SessionFacts = { createdAt: number; expiresAt: number; refreshTokenHash: string; mirroredClaims: string | null };

/**
 * After a refresh or a new session: writes the object when the claims hash differently from the
 * one D1 says the object holds, then records the new hash in D1 (after the answer). A failure
 * writes nothing to D1, so the next refresh tries again.
 */
export async function mirrorIfChanged(
  deps: Deps,
  project: ProjectRow,
  sessionId: string,
  facts: SessionFacts,
  claims: AccessTokenClaims,
): Promise<void> {
  const hash = await claimsHash(claims);
  if (hash === facts.mirroredClaims) return;
  deps.defer(
    writeMirror(deps, {
      sessionId,
      projectId: project.id,
      userId: claims.sub,
      createdAt: facts.createdAt,
      expiresAt: facts.expiresAt,
      tokenHash: facts.refreshTokenHash,
      claims,
      claimsHash: hash,
    }).then(() => setMirroredClaims(deps.db, project.id, sessionId, hash)),
  );
}

/** A new session: its row already carries `snapshot.claimsHash`; if the object cannot be written, the hash is cleared. */
export function mirrorNewSession(deps: Deps, snapshot: MirrorSnapshot): void {
  deps.defer(
    writeMirror(deps, snapshot).catch(async (err) => {
      console.warn(`session ${snapshot.sessionId}: mirror not written (${String(err)}); the next refresh retries`);
      await setMirroredClaims(deps.db, snapshot.projectId, snapshot.sessionId, null);
    }),
  );
}

function writeMirror(deps: Deps, snapshot: MirrorSnapshot): Promise<void> {
  return sessionObject(deps, snapshot.sessionId).mirror(snapshot);
}

/** Sessions D1 has already ended (trimmed, reuse detected): their objects refuse outage refreshes from now on. */
export function endMirroredSessions(deps: Deps, sessionIds: string[]): void {
  for (const id of sessionIds) deps.defer(sessionObject(deps, id).markRevoked());
}

export type OutageRefresh = { ok: true; accessToken: string; userId: string; sessionId: string } | { ok: false };

/**
 * The refresh while D1 is away: the token's pointer names the session, whose object decides and
 * stamps. Null when no object knows the token (never mirrored): the caller answers the outage.
 */
export async function refreshFromMirror(
  deps: Deps,
  project: ProjectRow,
  tokenHash: string,
  ipInfo: unknown,
): Promise<OutageRefresh | null> {
  const sessionId = await tokenPointer(deps, tokenHash).pointsTo();
  if (!sessionId) return null;
  const now = deps.now();
  const answer = await sessionObject(deps, sessionId).refreshDuringOutage({
    tokenHash,
    projectId: project.id,
    now,
    bornAfter: sessionLimits(readProjectConfig(project.config), now).bornAfter,
    graceMs: ROTATION_GRACE_MS,
    ipInfo,
  });
  if (answer === null) return null;
  if (!answer.ok) return { ok: false };
  const accessToken = await signAccessToken(deps.tokenKeys, deps.apiUrl, answer.claims, now, deps.accessTokenTtlSeconds);
  return { ok: true, accessToken, userId: answer.claims.sub, sessionId };
}

/**
 * After D1 answered a refresh, in an isolate that saw D1 away within POST_OUTAGE_CHECK_MS: was the
 * session signed out during the outage (its object knows; its delete may not have reached D1 yet)?
 */
export async function signedOutDuringOutage(deps: Deps, sessionId: string): Promise<boolean> {
  if (!recentlySawD1Down(deps)) return false;
  return sessionObject(deps, sessionId).isRevoked();
}

/**
 * `onD1()` within the D1 deadline; on a D1 failure or stall, `fallback()`. A fallback that cannot
 * answer (null) or fails itself gives the known 503, never a raw 500. A request that already found
 * D1 away (its auth lookup) goes to the fallback at once.
 */
export async function withD1Fallback<T>(
  deps: Deps,
  label: string,
  onD1: () => Promise<T>,
  fallback: (cause: unknown) => Promise<T | null>,
): Promise<T> {
  try {
    if (d1DownInThisRequest(deps)) throw new D1Unavailable("already unavailable in this request");
    return await withD1Deadline(onD1);
  } catch (err) {
    if (!isD1Failure(err)) throw err;
    noteD1Down(deps);
    console.warn(`${label}: ${String(err)}; answering from the fallback`);
    let answer: T | null;
    try {
      answer = await fallback(err);
    } catch (fallbackErr) {
      if (!isD1Failure(fallbackErr)) throw fallbackErr;
      console.error(`${label}: the fallback failed too`, fallbackErr);
      throw databaseUnavailable();
    }
    if (answer === null) throw databaseUnavailable();
    return answer;
  }
}
