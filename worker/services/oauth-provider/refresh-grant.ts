/**
 * grant_type=refresh_token (RFC 6749 §6) with rotation and reuse detection (RFC 9700 §4.14.2): each
 * refresh spends the token (one compare-and-set on used_at, in the batch that inserts its successor
 * and the `oauth_token.issued` event) and answers a new one. A spent token presented again means two
 * parties hold the family: the whole grant is revoked (reason "reuse"). There is no grace window:
 * of two concurrent refreshes with one token at most one succeeds, and the other revokes the grant.
 * A team-bound grant refreshes only while its user is still in the team.
 */
import { sha256Hex } from "../../crypto/hash";
import { findGrant, type OAuthGrantRow, touchGrantStatement } from "../../db/queries/oauth-grants";
import { findRefreshToken, insertRotatedRefreshTokenStatement, spendRefreshTokenStatement } from "../../db/queries/oauth-refresh-tokens";
import type { ProjectRow } from "../../db/queries/projects";
import { isTeamMember } from "../../db/queries/teams";
import { findUserRecord } from "../../db/queries/users";
import type { Deps } from "../deps";
import { eventIfChangedStatement } from "../events";
import type { OAuthClient } from "./clients";
import { revokeGrant } from "./grant-revocation";
import { type ProtocolError, protocolError } from "./protocol-error";
import { providerConfigOf } from "./provider";
import { newRefreshToken } from "./refresh-token-format";
import { narrowScope } from "./scopes";
import { grantTokens, type TokenResponseJson } from "./token-response";

export type RefreshGrantInput = { refreshToken?: string; scope?: string; resource?: string };

const badToken = () => protocolError("invalid_grant", "The refresh token is invalid, expired or revoked.");

async function replayed(deps: Deps, grant: OAuthGrantRow): Promise<ProtocolError> {
  await revokeGrant(deps, grant, "reuse");
  return protocolError("invalid_grant", "The refresh token was already used; the grant is revoked.");
}

export async function refreshGrant(
  deps: Deps,
  project: ProjectRow,
  client: OAuthClient,
  input: RefreshGrantInput,
): Promise<{ ok: true; tokens: TokenResponseJson } | ProtocolError> {
  if (!input.refreshToken) return protocolError("invalid_request", "refresh_token is required.");
  const now = deps.now();
  const tokenHash = await sha256Hex(input.refreshToken);
  const token = await findRefreshToken(deps.db, project.id, tokenHash);
  const grant = token ? await findGrant(deps.db, project.id, token.grantId) : null;
  // Another client's token is refused without being spent: only its own client can use (or burn) it.
  if (!token || !grant || grant.clientId !== client.clientId) return badToken();
  if (token.usedAt !== null) return replayed(deps, grant);
  if (grant.revokedAt !== null || grant.expiresAt === null || grant.expiresAt <= now) return badToken();
  const scope = narrowScope(grant.scope, input.scope);
  if (!scope.ok) return scope;
  // RFC 8707 §2.2: a refresh may name the resource, and it must be the grant's own.
  if (input.resource !== undefined && input.resource !== grant.resource)
    return protocolError("invalid_target", "resource differs from the one this grant is for.");
  // A deleted user's grants go with it (foreign key), so this is only the race with a deletion.
  const record = await findUserRecord(deps.db, project.id, grant.userId);
  if (!record) return badToken();
  // A team-bound grant lives only while the user is in the team: no new token names a team they left.
  if (grant.teamId && !(await isTeamMember(deps.db, grant.teamId, grant.userId)))
    return protocolError("invalid_grant", "The user is no longer a member of the team this grant is bound to.");

  const next = await newRefreshToken(deps);
  const [used] = await deps.db.batch([
    spendRefreshTokenStatement(deps.db, { projectId: project.id, tokenHash, now }),
    insertRotatedRefreshTokenStatement(deps.db, { tokenHash: next.hash, grantId: grant.id, projectId: project.id, createdAt: now }),
    eventIfChangedStatement(
      deps,
      project.id,
      "oauth_token.issued",
      { userId: grant.userId, teamId: grant.teamId },
      {
        client_id: client.clientId,
        grant_id: grant.id,
        grant_type: "refresh_token",
        scope: scope.scope,
        ...(grant.resource ? { resource: grant.resource } : {}),
      },
    ),
    touchGrantStatement(deps.db, grant.id, now),
  ]);
  if (used.length === 0) {
    // Lost the compare-and-set: a concurrent refresh spent the token first (a replay), or the grant ended meanwhile.
    const after = await findRefreshToken(deps.db, project.id, tokenHash);
    return after?.usedAt != null ? replayed(deps, grant) : badToken();
  }
  const tokens = await grantTokens(deps, providerConfigOf(project), {
    projectId: project.id,
    clientId: client.clientId,
    record,
    grantId: grant.id,
    scope: scope.scope,
    resource: grant.resource,
    teamId: grant.teamId,
    authTime: grant.authTime,
    amr: grant.amr,
    acr: grant.acr,
    nonce: null,
    refreshToken: next.token,
  });
  return { ok: true, tokens };
}
