/**
 * Revoking a grant: every token it issued stops working at once (access tokens carry its id, and
 * introspection, userinfo and refresh read it). One compare-and-set with its `oauth_token.revoked`
 * event in the same batch, written only by the call that revoked it.
 */
import { type GrantRevocationReason, revokeGrantStatement } from "../../db/queries/oauth-grants";
import type { Deps } from "../deps";
import { eventIfChangedStatement } from "../events";

export type RevocableGrant = { id: string; projectId: string; clientId: string; userId: string; teamId: string | null };

/** Revokes `grant` for `reason` (client: RFC 7009; reuse: a replayed refresh token; code_reuse: a replayed code). */
export async function revokeGrant(
  deps: Deps,
  grant: RevocableGrant,
  reason: Extract<GrantRevocationReason, "client" | "reuse" | "code_reuse">,
) {
  const [revoked] = await deps.db.batch([
    revokeGrantStatement(deps.db, grant.projectId, grant.id, deps.now(), reason),
    eventIfChangedStatement(
      deps,
      grant.projectId,
      "oauth_token.revoked",
      { userId: grant.userId, teamId: grant.teamId },
      { client_id: grant.clientId, grant_id: grant.id, reason },
    ),
  ]);
  return (revoked.meta.changes ?? 0) > 0;
}
