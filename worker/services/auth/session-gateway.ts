/**
 * Routes refresh and revoke of a session through its SessionDO (one instance per session id).
 * A refresh without rotation (the default) needs no ordering and skips the object: one D1 batch
 * stamps the session and reads the user (sessions.ts refreshWithoutRotation).
 * If the object is unavailable (overloaded, reset, connection lost), a retryable failure is retried
 * once on a fresh stub, then the same compare-and-set statements run straight on D1: they are
 * correct without the object (it only orders them), so a refresh still answers 200 or
 * "not found", and a sign-out still deletes the session or fails with an error. Only a D1 failure
 * can still surface as a 5xx, and then loudly.
 * A D1 that fails or stalls past its deadline is a D1 outage: the refresh is then answered by the
 * session's object from its mirror (services/outage/session-mirror.ts), and a sign-out holds there.
 */
import { sha256Hex } from "../../crypto/hash";
import type { ProjectRow } from "../../db/queries/projects";
import { findRetiredToken, findSessionByTokenHash } from "../../db/queries/sessions";
import { callerAudit, type Deps } from "../deps";
import { eventFor } from "../events";
import { refreshFromMirror, signedOutDuringOutage, withD1Fallback } from "../outage/session-mirror";
import { readProjectConfig } from "../project-config/flat";
import {
  finishRefresh,
  type IpInfo,
  type RefreshResult,
  type RefreshStep,
  refreshSessionStep,
  refreshWithoutRotation,
  revokeSession,
} from "./sessions";

function stubFor(deps: Deps, sessionId: string) {
  return deps.env.SESSION_DO.get(deps.env.SESSION_DO.idFromName(sessionId));
}

/** A failure of the Durable Object itself (not of the code it ran); the runtime flags these. */
function durableObjectFailure(err: unknown): { retryable: boolean } | null {
  if (!(err instanceof Error)) return null;
  const flags = err as Error & { retryable?: boolean; overloaded?: boolean; remote?: boolean };
  if (flags.overloaded) return { retryable: false }; // retrying an overloaded object makes it worse
  if (flags.retryable) return { retryable: true };
  if (/durable object|network connection lost|restarted|reset|overloaded|internal error/i.test(err.message) && !flags.remote)
    return { retryable: false };
  return null;
}

async function throughObject<T>(sessionId: string, viaObject: () => Promise<T>, direct: () => Promise<T>): Promise<T> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      return await viaObject();
    } catch (err) {
      const failure = durableObjectFailure(err);
      if (!failure) throw err;
      console.warn(
        `session ${sessionId}: Durable Object unavailable (${String(err)}); ${failure.retryable && attempt === 0 ? "retrying" : "using D1"}`,
      );
      if (!failure.retryable) break;
    }
  }
  return direct();
}

export async function refreshThroughSession(deps: Deps, project: ProjectRow, refreshToken: string, ipInfo: IpInfo): Promise<RefreshResult> {
  if (!refreshToken || refreshToken === "undefined") return { ok: false };
  const tokenHash = await sha256Hex(refreshToken);
  // D1 failing or slow: the session's object answers from its mirror (no extra call while D1 is fine).
  return withD1Fallback(
    deps,
    `refresh in project ${project.id}`,
    () => refreshOnD1(deps, project, refreshToken, tokenHash, ipInfo),
    () => refreshFromMirror(deps, project, tokenHash, ipInfo),
  );
}

async function refreshOnD1(
  deps: Deps,
  project: ProjectRow,
  refreshToken: string,
  tokenHash: string,
  ipInfo: IpInfo,
): Promise<RefreshResult> {
  // Only rotation needs the session's object to order its steps; without it one D1 batch does all.
  if (!readProjectConfig(project.config).refresh_token_rotation) {
    const refreshed = await refreshWithoutRotation(deps, project, tokenHash, ipInfo);
    // Only in an isolate that saw D1 away in the last minutes: a sign-out during the outage holds (services/outage/).
    if (refreshed.ok && (await signedOutDuringOutage(deps, refreshed.sessionId))) return { ok: false };
    return refreshed;
  }
  const sessionId =
    (await findSessionByTokenHash(deps.db, project.id, tokenHash))?.id ??
    (await findRetiredToken(deps.db, project.id, tokenHash))?.sessionId;
  if (!sessionId) return { ok: false };
  const step: RefreshStep = await throughObject(
    sessionId,
    () =>
      stubFor(deps, sessionId).refreshStep({
        projectId: project.id,
        project,
        apiUrl: deps.apiUrl,
        nowMs: deps.now(),
        audit: callerAudit(deps),
        refreshToken,
        ipInfo,
      }),
    () => refreshSessionStep(deps, project, refreshToken, ipInfo),
  );
  // Minting (user record, ES256 signature) needs no ordering, so it stays out of the object's queue.
  return finishRefresh(deps, project, step);
}

/**
 * True when this call deleted the session; false when it was already gone. A failure throws (a 5xx), never false.
 * The event (sign_out or session.revoked) is written in the delete's batch, only by the call that deleted it.
 */
export async function revokeThroughSession(
  deps: Deps,
  projectId: string,
  session: { id: string; userId: string },
  type: "sign_out" | "session.revoked",
): Promise<boolean> {
  const event = eventFor(deps, projectId, type, { userId: session.userId }, { session_id: session.id });
  return throughObject(
    session.id,
    () =>
      stubFor(deps, session.id).revoke({
        projectId,
        apiUrl: deps.apiUrl,
        nowMs: deps.now(),
        audit: callerAudit(deps),
        sessionId: session.id,
        event,
      }),
    () => revokeSession(deps, projectId, session.id, event),
  );
}
