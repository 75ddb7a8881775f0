/** Routes refresh and revoke of a session through its SessionDO (one instance per session id). */
import { sha256Hex } from "../crypto/hash";
import type { ProjectRow } from "../db/queries/projects";
import { findRetiredToken, findSessionByTokenHash } from "../db/queries/sessions";
import type { Deps } from "../lib/context";
import type { IpInfo, RefreshResult } from "./sessions";

function stubFor(deps: Deps, sessionId: string) {
  return deps.env.SESSION_DO.get(deps.env.SESSION_DO.idFromName(sessionId));
}

export async function refreshThroughSession(deps: Deps, project: ProjectRow, refreshToken: string, ipInfo: IpInfo): Promise<RefreshResult> {
  if (!refreshToken || refreshToken === "undefined") return { ok: false };
  const tokenHash = await sha256Hex(refreshToken);
  const sessionId =
    (await findSessionByTokenHash(deps.db, project.id, tokenHash))?.id ??
    (await findRetiredToken(deps.db, project.id, tokenHash))?.sessionId;
  if (!sessionId) return { ok: false };
  return stubFor(deps, sessionId).refresh({ projectId: project.id, project, apiUrl: deps.apiUrl, nowMs: deps.now(), refreshToken, ipInfo });
}

export async function revokeThroughSession(deps: Deps, projectId: string, sessionId: string): Promise<boolean> {
  return stubFor(deps, sessionId).revoke({ projectId, apiUrl: deps.apiUrl, nowMs: deps.now(), sessionId });
}
