/**
 * Token revocation (RFC 7009). Revoking either kind of token revokes its whole grant: the refresh
 * token, its successors and every access token issued under it (they carry the grant's id, which
 * introspection and userinfo check), since RFC 7009 §2.1 lets a server revoke related tokens and a
 * half-revoked grant would leave a refresh token able to mint more. A token that is unknown, expired,
 * or another client's changes nothing and the answer is the same 200 (§2.2: no oracle for guessers).
 */
import { sha256Hex } from "../../crypto/hash";
import { findGrant, type OAuthGrantRow } from "../../db/queries/oauth-grants";
import { findRefreshToken } from "../../db/queries/oauth-refresh-tokens";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { verifyProviderAccessToken } from "./access-token";
import type { OAuthClient } from "./clients";
import { revokeGrant } from "./grant-revocation";
import { looksLikeRefreshToken } from "./refresh-token-format";

async function grantOfRefreshToken(deps: Deps, project: ProjectRow, token: string): Promise<OAuthGrantRow | null> {
  const row = await findRefreshToken(deps.db, project.id, await sha256Hex(token));
  return row ? findGrant(deps.db, project.id, row.grantId) : null;
}

async function grantOfAccessToken(deps: Deps, project: ProjectRow, token: string): Promise<OAuthGrantRow | null> {
  const claims = await verifyProviderAccessToken(deps, project.id, token);
  return claims ? findGrant(deps.db, project.id, claims.grant_id) : null;
}

/** Revokes the grant of `token` when it is `client`'s; answers whether something was revoked (the wire answer is 200 either way). */
export async function revokeToken(deps: Deps, project: ProjectRow, client: OAuthClient, token: string, hint?: string): Promise<boolean> {
  const refreshFirst = hint === "refresh_token" || (hint !== "access_token" && looksLikeRefreshToken(token));
  const lookups = refreshFirst ? [grantOfRefreshToken, grantOfAccessToken] : [grantOfAccessToken, grantOfRefreshToken];
  for (const lookup of lookups) {
    const grant = await lookup(deps, project, token);
    if (!grant) continue;
    // Only the client the grant was issued to may revoke it: another client's token changes nothing.
    if (grant.clientId !== client.clientId) return false;
    return revokeGrant(deps, grant, "client");
  }
  return false;
}
