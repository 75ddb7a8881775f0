/**
 * Sessions and tokens: create a session (refresh token stored hashed), mint access tokens,
 * refresh (with optional rotation and reuse detection) and revoke. Refresh and revoke of one
 * session are serialised by its SessionDO; the statements here are also safe on their own
 * (compare-and-set updates), so a racing sign-out yields "not found", never a 5xx.
 */

import { DEFAULT_SESSION_EXPIRY_MS, INTERNAL_PROJECT_ID } from "@doorman/shared/constants";
import type { BatchItem } from "drizzle-orm/batch";
import { type AccessTokenClaims, signAccessToken } from "../../crypto/access-tokens";
import { sha256Hex } from "../../crypto/hash";
import { insertEventIfChangedStatement, type NewEvent } from "../../db/queries/events";
import type { ProjectRow } from "../../db/queries/projects";
import {
  deleteLiveSessionsOfProjectStatement,
  deleteSession,
  deleteSessionStatement,
  deleteSessionsOfUser,
  findRetiredToken,
  findSession,
  findSessionByTokenHash,
  insertSessionStatement,
  rotateSessionToken,
  touchLiveSession,
  touchSessionReadingUser,
  trimSessionsStatement,
} from "../../db/queries/sessions";
import { findUserRecord, type UserRecord } from "../../db/queries/users";
import type { Deps } from "../deps";
import { notifyIfNewDevice } from "../email/notices";
import { activityStatement, eventFor, eventIfChangedStatement, eventStatement, noteActivity, type SignInMethod } from "../events";
import { cutProjectSessions, cutUserSessions } from "../outage/revocation-cuts";
import { claimsHash, endMirroredSessions, mirrorIfChanged, mirrorNewSession, type SessionFacts } from "../outage/session-mirror";
import { type FlatProjectConfig, readProjectConfig } from "../project-config/flat";
import { fail, type Problem } from "../result";
import { type SsoSignInOrigin, ssoSignedInStatement } from "../sso/session-origin";
import { restrictedReasonOf } from "../user-restrictions";
import { amrOfOrigin } from "./session-amr";
import { sessionLimits, withinSessionLimits } from "./session-policy";

/** How long a rotated-out refresh token still works, for tabs that refreshed concurrently. */
export const ROTATION_GRACE_MS = 30_000;

export type IpInfo = Record<string, unknown> | null;

export type NewSession = {
  sessionId: string;
  refreshToken: string;
  /** SHA-256 of refreshToken, as stored. */
  tokenHash: string;
  createdAt: number;
  expiresAt: number;
  statement: ReturnType<typeof insertSessionStatement>;
  /** Ends the user's oldest sessions beyond the project's maximum; run right after `statement`, in its batch. */
  trim: ReturnType<typeof trimSessionsStatement> | null;
};

export async function prepareSession(
  deps: Deps,
  projectId: string,
  userId: string,
  options: {
    expiresInMs?: number;
    isImpersonation?: boolean;
    ipInfo?: IpInfo;
    sessionId?: string;
    maxPerUser?: number;
    /** How the user authenticated, as RFC 8176 values (session-amr.ts); null when no sign-in made the session. */
    amr?: string[] | null;
    /** The claims hash its Durable Object will mirror (services/outage/); null: mirrored at the first refresh. */
    mirroredClaims?: string | null;
  } = {},
): Promise<NewSession> {
  const now = deps.now();
  // A caller may reserve the id in advance (CLI login: the id makes the hand-out one-shot).
  const sessionId = options.sessionId ?? deps.random.uuid();
  const refreshToken = deps.random.code(45);
  // Only the SHA-256 is stored: a database leak does not leak live sessions.
  const tokenHash = await sha256Hex(refreshToken);
  const expiresAt = now + (options.expiresInMs ?? DEFAULT_SESSION_EXPIRY_MS);
  const statement = insertSessionStatement(deps.db, {
    id: sessionId,
    projectId,
    userId,
    refreshTokenHash: tokenHash,
    createdAt: now,
    expiresAt,
    lastUsedAt: now,
    isImpersonation: options.isImpersonation ?? false,
    lastIpInfo: options.ipInfo ?? null,
    amr: options.amr ?? null,
    mirroredClaims: options.mirroredClaims ?? null,
  });
  const trim = options.maxPerUser ? trimSessionsStatement(deps.db, projectId, userId, sessionId, options.maxPerUser) : null;
  return { sessionId, refreshToken, tokenHash, createdAt: now, expiresAt, statement, trim };
}

export function accessTokenClaims(projectId: string, record: UserRecord, config: FlatProjectConfig, sessionId: string): AccessTokenClaims {
  const reason = restrictedReasonOf(record, config);
  return {
    sub: record.user.id,
    project_id: projectId,
    branch_id: "main",
    refresh_token_id: sessionId,
    role: "authenticated",
    name: record.user.displayName ?? null,
    email: record.primaryEmail?.value ?? null,
    email_verified: record.primaryEmail?.isVerified ?? false,
    selected_team_id: record.user.selectedTeamId ?? null,
    signed_up_at: Math.floor(record.user.signedUpAt / 1000),
    is_anonymous: record.user.isAnonymous,
    is_restricted: reason !== null,
    restricted_reason: reason,
    requires_totp_mfa: Boolean(record.user.totpSecret),
  };
}

export function mintAccessToken(deps: Deps, project: ProjectRow, record: UserRecord, sessionId: string): Promise<string> {
  const claims = accessTokenClaims(project.id, record, readProjectConfig(project.config), sessionId);
  return signAccessToken(deps.tokenKeys, deps.apiUrl, claims, deps.now(), deps.accessTokenTtlSeconds);
}

/** How a session came about, for the event log: a sign-in by a method, or an admin's impersonation. */
export type SessionOrigin =
  | {
      signIn: {
        method: SignInMethod;
        provider?: string;
        mfa?: boolean;
        /** The sign-in's risk score and the signals that fired (services/protection/risk.ts). */
        risk?: { score: number; signals: string[] };
        /** The sign-in waited for an emailed code (new-device verification). */
        device_verified?: boolean;
        /** A passkey sign-in whose authenticator verified the user (a PIN or biometric). */
        user_verified?: boolean;
        /** An enterprise SSO sign-in (issue 31): its connection, for the sso.signed_in event and the session's amr. */
        sso?: SsoSignInOrigin;
      };
    }
  | { impersonation: true; via?: "link" };

/** The events of a new session, for its batch: sign_in.succeeded (and the day's user.active) or session.impersonated. */
export function sessionEvents(deps: Deps, projectId: string, userId: string, sessionId: string, origin: SessionOrigin) {
  if ("impersonation" in origin)
    return [
      eventStatement(
        deps,
        projectId,
        "session.impersonated",
        { userId },
        { session_id: sessionId, ...(origin.via ? { via: origin.via } : {}) },
      ),
    ];
  const { sso, ...signIn } = origin.signIn;
  return [
    eventStatement(deps, projectId, "sign_in.succeeded", { userId }, { ...signIn, session_id: sessionId }),
    activityStatement(deps, projectId, userId),
    // The SSO sign-in's own event, in the batch that makes the session (issue 31).
    ...(sso ? [ssoSignedInStatement(deps, projectId, userId, sessionId, sso)] : []),
  ];
}

/** Sessions a back end creates, and guests, are no device of the user's: no new-sign-in notice. */
const NO_DEVICE_NOTICE: ReadonlySet<string> = new Set(["server", "anonymous"]);

/** Creates a session for an existing user and returns its tokens; the session and its events are one batch. */
export async function createSessionForUser(
  deps: Deps,
  project: ProjectRow,
  userId: string,
  options: {
    expiresInMs?: number;
    ipInfo?: IpInfo;
    origin: SessionOrigin;
    /** More statements for the session's batch (the sign-in's device: services/protection/devices.ts). */
    alongside?: BatchItem<"sqlite">[];
    /** The user's record when the caller has just read it (a sign-in, issue 32): not read again. */
    record?: UserRecord;
  },
): Promise<{ ok: true; accessToken: string; refreshToken: string; sessionId: string } | Problem<"user_not_found">> {
  const record = options.record ?? (await findUserRecord(deps.db, project.id, userId));
  if (!record) return fail("user_not_found");
  const isImpersonation = "impersonation" in options.origin;
  const config = readProjectConfig(project.config);
  // The session id is chosen first: the claims (and their hash, for the outage mirror) name it.
  const sessionId = deps.random.uuid();
  const claims = accessTokenClaims(project.id, record, config, sessionId);
  const hash = await claimsHash(claims);
  const session = await prepareSession(deps, project.id, userId, {
    ...options,
    sessionId,
    isImpersonation,
    maxPerUser: config.max_sessions_per_user,
    amr: amrOfOrigin(options.origin),
    mirroredClaims: hash,
  });
  const signedInAt = deps.now();
  // The maximum is kept in the insert's own batch (one transaction): concurrent sign-ins cannot exceed it.
  const [, trimmed] = await deps.db.batch([
    session.statement,
    ...(session.trim ? [session.trim] : []),
    ...sessionEvents(deps, project.id, userId, session.sessionId, options.origin),
    ...(options.alongside ?? []),
  ]);
  // Written through to the session's Durable Object after the answer, so a refresh survives a D1 outage (services/outage/).
  mirrorNewSession(deps, {
    sessionId,
    projectId: project.id,
    userId,
    createdAt: session.createdAt,
    expiresAt: session.expiresAt,
    tokenHash: session.tokenHash,
    claims,
    claimsHash: hash,
  });
  if (session.trim)
    endMirroredSessions(
      deps,
      (trimmed as { id: string }[]).map((r) => r.id),
    );
  // A user's own sign-in from a new device gets a notice, after the response (one indexed query, then maybe an email).
  if ("signIn" in options.origin && !NO_DEVICE_NOTICE.has(options.origin.signIn.method))
    deps.defer(notifyIfNewDevice(deps, project, userId, signedInAt));
  const accessToken = await signAccessToken(deps.tokenKeys, deps.apiUrl, claims, deps.now(), deps.accessTokenTtlSeconds);
  return { ok: true, accessToken, refreshToken: session.refreshToken, sessionId: session.sessionId };
}

export type RefreshResult = { ok: true; accessToken: string; refreshToken?: string; userId: string; sessionId: string } | { ok: false };

/** The session-state part of a refresh: which session, and the new refresh token under rotation; `facts` feed the outage mirror. */
export type RefreshStep = { ok: true; sessionId: string; userId: string; refreshToken?: string; facts: SessionFacts } | { ok: false };

/**
 * The state change of one refresh, as compare-and-set statements on D1: stamps use, or rotates the
 * token. Short on purpose (the SessionDO runs these one at a time); minting is finishRefresh's job.
 * Safe on its own too (the gateway's fallback when the DO is unavailable): a racing sign-out
 * makes every statement here match nothing, so the answer is { ok: false }, never an exception.
 */
export async function refreshSessionStep(deps: Deps, project: ProjectRow, refreshToken: string, ipInfo: IpInfo): Promise<RefreshStep> {
  const now = deps.now();
  const tokenHash = await sha256Hex(refreshToken);
  const config = readProjectConfig(project.config);
  // The project's idle timeout and absolute lifetime: a session past either refreshes no more.
  const limits = sessionLimits(config, now);
  if (!config.refresh_token_rotation) {
    // Common path: one compare-and-set UPDATE finds the live session and stamps its use.
    const touched = await touchLiveSession(deps.db, project.id, { tokenHash }, now, ipInfo, limits);
    return touched ? { ok: true, sessionId: touched.id, userId: touched.userId, facts: touched } : { ok: false };
  }
  const session = await findSessionByTokenHash(deps.db, project.id, tokenHash);
  if (session) {
    if (session.expiresAt <= now || !withinSessionLimits(limits, session)) return { ok: false };
    const newRefreshToken = deps.random.code(45);
    const rotated = await rotateSessionToken(deps.db, session, tokenHash, await sha256Hex(newRefreshToken), now);
    if (rotated) return { ok: true, sessionId: session.id, userId: session.userId, refreshToken: newRefreshToken, facts: rotated };
    // Lost the swap to a concurrent refresh (or a sign-out): the token is now retired or gone.
  }
  const retired = await findRetiredToken(deps.db, project.id, tokenHash);
  if (!retired) return { ok: false };
  // A rotated-out token: fine inside the grace window (tabs that refreshed concurrently);
  // afterwards it is a replay of a stolen token, so the whole session is revoked (ASVS 10.4.5).
  if (now - retired.retiredAt > ROTATION_GRACE_MS) {
    const family = await findSession(deps.db, project.id, retired.sessionId);
    if (family) {
      const event = eventFor(deps, project.id, "session.token_reused", { userId: family.userId }, { session_id: family.id });
      await revokeSession(deps, project.id, family.id, event);
      endMirroredSessions(deps, [family.id]);
    }
    return { ok: false };
  }
  const live = await touchLiveSession(deps.db, project.id, { id: retired.sessionId }, now, ipInfo, limits);
  return live ? { ok: true, sessionId: live.id, userId: live.userId, facts: live } : { ok: false };
}

/** Mints the access token for a refresh step; needs no serialisation. */
export async function finishRefresh(deps: Deps, project: ProjectRow, step: RefreshStep): Promise<RefreshResult> {
  if (!step.ok) return { ok: false };
  const record = await findUserRecord(deps.db, project.id, step.userId);
  if (!record) return { ok: false };
  return mintRefreshed(deps, project, record, step.sessionId, step.facts, step.refreshToken);
}

async function mintRefreshed(
  deps: Deps,
  project: ProjectRow,
  record: UserRecord,
  sessionId: string,
  facts: SessionFacts,
  refreshToken?: string,
): Promise<RefreshResult> {
  // After the answer: at most one user.active per user and day; a lost one only undercounts that day.
  noteActivity(deps, project.id, record.user.id);
  const claims = accessTokenClaims(project.id, record, readProjectConfig(project.config), sessionId);
  // Claims that changed since the session's object last stored them are written there after the answer (services/outage/).
  await mirrorIfChanged(deps, project, sessionId, facts, claims);
  const accessToken = await signAccessToken(deps.tokenKeys, deps.apiUrl, claims, deps.now(), deps.accessTokenTtlSeconds);
  return { ok: true, accessToken, refreshToken, userId: record.user.id, sessionId };
}

/**
 * A refresh without rotation (the default): one D1 batch stamps the live session and reads its
 * user, then the access token is minted. It needs no Durable Object: with nothing to rotate, the
 * stamp is one compare-and-set UPDATE in a transaction, so a racing sign-out (a DELETE) lands
 * wholly before it (nothing matches: not found) or after it (the session is gone from then on).
 */
export async function refreshWithoutRotation(deps: Deps, project: ProjectRow, tokenHash: string, ipInfo: IpInfo): Promise<RefreshResult> {
  const now = deps.now();
  const limits = sessionLimits(readProjectConfig(project.config), now);
  const hit = await touchSessionReadingUser(deps.db, project.id, tokenHash, now, ipInfo, limits);
  if (!hit) return { ok: false };
  return mintRefreshed(deps, project, hit.record, hit.session.id, hit.session);
}

/** Refreshes one session straight on D1 (compare-and-set); normally called through the SessionDO. */
export async function refreshSession(deps: Deps, project: ProjectRow, refreshToken: string, ipInfo: IpInfo): Promise<RefreshResult> {
  return finishRefresh(deps, project, await refreshSessionStep(deps, project, refreshToken, ipInfo));
}

/** Revokes (deletes) one session, with its event in the same batch (written only if this call deleted it); false when it was already gone. */
export async function revokeSession(deps: Deps, projectId: string, sessionId: string, event?: NewEvent): Promise<boolean> {
  if (!event) return deleteSession(deps.db, projectId, sessionId);
  const [deleted] = await deps.db.batch([
    deleteSessionStatement(deps.db, projectId, sessionId),
    insertEventIfChangedStatement(deps.db, event),
  ]);
  return deleted.length > 0;
}

/** At most this many session.revoked events per sign-out everywhere (one batch); the deletion itself has no limit. */
const MAX_REVOKE_EVENTS = 100;

/**
 * Sign-out everywhere: ends every session of the user except `keepId` (the caller's own, if any)
 * in one DELETE, then records a session.revoked event for each. Their access tokens are refused
 * from the next request on (request-auth.ts checks the session). Answers how many were ended.
 */
export async function revokeSessionsOfUser(
  deps: Deps,
  projectId: string,
  userId: string,
  keepId: string | null,
): Promise<{ ok: true; ended: number } | Problem<"user_not_found">> {
  // Another project's (or no) user is not found, never a silent success.
  if (!(await findUserRecord(deps.db, projectId, userId))) return fail("user_not_found");
  const ended = await deleteSessionsOfUser(deps.db, projectId, userId, keepId);
  // Their objects would still answer an outage refresh: a cut tells them (services/outage/revocation-cuts.ts).
  cutUserSessions(deps, userId, keepId);
  const events = ended
    .slice(0, MAX_REVOKE_EVENTS)
    .map((id) => eventStatement(deps, projectId, "session.revoked", { userId }, { session_id: id, everywhere: true }));
  if (events.length > 0) await deps.db.batch(events as [(typeof events)[number], ...(typeof events)[number][]]);
  return { ok: true, ended: ended.length };
}

/**
 * Signs every user of the project out (ASVS 7.4.5): one DELETE ends all its live sessions, and one
 * session.revoked event ({all_users: true}) is written in the same batch, only if any ended. The
 * access tokens of those sessions are refused from the next request on (the live-session check of
 * request-auth.ts), and their refresh tokens find nothing: a racing refresh answers "not found",
 * never a 5xx. The internal project is refused: its sessions are the console's owners', of every team.
 */
export async function revokeAllSessionsOfProject(
  deps: Deps,
  projectId: string,
): Promise<{ ok: true; ended: number } | Problem<"internal_project_sessions">> {
  if (projectId === INTERNAL_PROJECT_ID) return fail("internal_project_sessions");
  cutProjectSessions(deps, projectId);
  const [deleted] = await deps.db.batch([
    deleteLiveSessionsOfProjectStatement(deps.db, projectId, deps.now()),
    eventIfChangedStatement(deps, projectId, "session.revoked", {}, { all_users: true }),
  ]);
  return { ok: true, ended: deleted.meta.changes ?? 0 };
}
