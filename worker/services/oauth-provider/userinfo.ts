/**
 * The UserInfo endpoint (OpenID Connect Core §5.3): the signed-in user's claims for an access token of
 * this issuer that was issued for the issuer itself (no `resource`: a token for another API is not
 * for this one) and whose grant is live, by the granted scopes: sub always; profile → name, picture;
 * email → email, email_verified; team_id when the grant is bound to a team. Read fresh from D1.
 */
import { findGrant } from "../../db/queries/oauth-grants";
import type { ProjectRow } from "../../db/queries/projects";
import { findUserRecord } from "../../db/queries/users";
import type { Deps } from "../deps";
import { verifyProviderAccessToken } from "./access-token";
import { scopedUserClaims } from "./id-token";
import { type ProtocolError, protocolError } from "./protocol-error";
import { issuerOf } from "./provider";

export async function userInfo(
  deps: Deps,
  project: ProjectRow,
  accessToken: string,
): Promise<{ ok: true; claims: Record<string, unknown> } | ProtocolError> {
  const invalid = protocolError("invalid_token", "The access token is invalid, expired or revoked.");
  const claims = await verifyProviderAccessToken(deps, project.id, accessToken);
  // RFC 8707: a token bound to another resource is not accepted here (it would be a confused deputy).
  if (!claims || claims.aud !== issuerOf(deps, project.id)) return invalid;
  const grant = await findGrant(deps.db, project.id, claims.grant_id);
  if (!grant || grant.revokedAt !== null || grant.userId !== claims.sub) return invalid;
  const scopes = claims.scope.split(" ");
  if (!scopes.includes("openid")) return protocolError("insufficient_scope", "The access token was not granted the openid scope.");
  const record = await findUserRecord(deps.db, project.id, claims.sub);
  if (!record) return invalid;
  return { ok: true, claims: { sub: record.user.id, ...scopedUserClaims(record, scopes, grant.teamId) } };
}
