/**
 * Revocations of many sessions at once (sign-out everywhere, a password change, SCIM
 * deprovisioning, a deleted user, signing out a whole project) end rows in D1 whose ids the
 * worker may never see. Their objects would still answer an outage refresh, so each such
 * revocation also writes a cut to KV: sessions of this user (or project) created at or before
 * `before`, but `keep`, have ended. An outage refresh reads the two cuts of its session
 * (mirror-store.ts mayRefresh). One KV write per revocation, never per request.
 * KV is eventually consistent (about a minute across locations): a cut made within that minute
 * before an outage may not be seen by every location during it (docs/deploy.md).
 */
import type { Bindings } from "../../env";
import { OUTAGE_CUT_TTL_S, outageCutKey } from "../../kv/keys";
import type { Deps } from "../deps";
import type { RevocationCut } from "./mirror-store";

const userKey = (userId: string) => outageCutKey("user", userId);
const projectKey = (projectId: string) => outageCutKey("project", projectId);

function writeCut(deps: Deps, key: string, cut: RevocationCut): void {
  deps.defer(deps.env.KV.put(key, JSON.stringify(cut), { expirationTtl: OUTAGE_CUT_TTL_S }));
}

/** Every session of the user created until now has ended, but `keep` (the caller's own, if any). */
export function cutUserSessions(deps: Deps, userId: string, keep: string | null = null): void {
  writeCut(deps, userKey(userId), { before: deps.now(), keep });
}

/** Every session of the project created until now has ended. */
export function cutProjectSessions(deps: Deps, projectId: string): void {
  writeCut(deps, projectKey(projectId), { before: deps.now() });
}

/** The user's and the project's cuts (null where none), read only by an outage refresh. */
export async function readCuts(env: Pick<Bindings, "KV">, projectId: string, userId: string): Promise<(RevocationCut | null)[]> {
  const [user, project] = await Promise.all([
    env.KV.get<RevocationCut>(userKey(userId), "json"),
    env.KV.get<RevocationCut>(projectKey(projectId), "json"),
  ]);
  return [user, project];
}
