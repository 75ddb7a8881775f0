/**
 * Token introspection (RFC 7662) for resource servers: is this access or refresh token live, and what
 * does it allow? A confidential client learns about its own tokens only (another's answer
 * `{active:false}`, as if unknown); the project's secret server key may ask about any token of the
 * project. Expired, revoked, unknown and foreign tokens are all just `{active:false}` (§2.2).
 */
import { sha256Hex } from "../../crypto/hash";
import { findGrant, type OAuthGrantRow } from "../../db/queries/oauth-grants";
import { findRefreshToken } from "../../db/queries/oauth-refresh-tokens";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { verifyProviderAccessToken } from "./access-token";
import { issuerOf } from "./provider";
import { looksLikeRefreshToken } from "./refresh-token-format";

/** Who asks: the project's back end (its server key) or one of its clients. */
export type Introspector = { kind: "project" } | { kind: "client"; clientId: string };

export type IntrospectionJson = {
  active: boolean;
  scope?: string;
  client_id?: string;
  sub?: string;
  aud?: string;
  iss?: string;
  exp?: number;
  iat?: number;
  /** "Bearer" for an access token, "refresh_token" for a refresh token. */
  token_type?: string;
  team_id?: string;
};

const INACTIVE: IntrospectionJson = { active: false };

/** A live grant the caller may learn about: its own client's, or any of the project's for the server key. */
function visible(grant: OAuthGrantRow | null, who: Introspector): grant is OAuthGrantRow {
  if (!grant || grant.revokedAt !== null) return false;
  return who.kind === "project" || grant.clientId === who.clientId;
}

async function introspectRefreshToken(
  deps: Deps,
  project: ProjectRow,
  token: string,
  who: Introspector,
): Promise<IntrospectionJson | null> {
  const row = await findRefreshToken(deps.db, project.id, await sha256Hex(token));
  if (!row) return null;
  const grant = await findGrant(deps.db, project.id, row.grantId);
  const now = deps.now();
  if (row.usedAt !== null || !visible(grant, who) || grant.expiresAt === null || grant.expiresAt <= now) return INACTIVE;
  return {
    active: true,
    scope: grant.scope,
    client_id: grant.clientId,
    sub: grant.userId,
    aud: grant.resource ?? issuerOf(deps, project.id),
    iss: issuerOf(deps, project.id),
    exp: Math.floor(grant.expiresAt / 1000),
    iat: Math.floor(row.createdAt / 1000),
    token_type: "refresh_token",
    ...(grant.teamId ? { team_id: grant.teamId } : {}),
  };
}

async function introspectAccessToken(deps: Deps, project: ProjectRow, token: string, who: Introspector): Promise<IntrospectionJson | null> {
  const claims = await verifyProviderAccessToken(deps, project.id, token);
  if (!claims) return null;
  const grant = await findGrant(deps.db, project.id, claims.grant_id);
  if (!visible(grant, who) || grant.userId !== claims.sub) return INACTIVE;
  return {
    active: true,
    scope: claims.scope,
    client_id: claims.client_id,
    sub: claims.sub,
    aud: claims.aud,
    iss: issuerOf(deps, project.id),
    exp: claims.exp,
    iat: claims.iat,
    token_type: "Bearer",
    ...(typeof claims.team_id === "string" ? { team_id: claims.team_id } : {}),
  };
}

export async function introspectToken(
  deps: Deps,
  project: ProjectRow,
  token: string,
  who: Introspector,
  hint?: string,
): Promise<IntrospectionJson> {
  // The hint only orders the lookups (RFC 7662 §2.1): a wrong hint still finds the token.
  const refreshFirst = hint === "refresh_token" || (hint !== "access_token" && looksLikeRefreshToken(token));
  const lookups = refreshFirst ? [introspectRefreshToken, introspectAccessToken] : [introspectAccessToken, introspectRefreshToken];
  for (const lookup of lookups) {
    const answer = await lookup(deps, project, token, who);
    if (answer) return answer;
  }
  return INACTIVE;
}
