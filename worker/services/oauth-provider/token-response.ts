/**
 * The token endpoint's success answer (RFC 6749 §5.1, OpenID Connect Core §3.1.3.3): an RFC 9068
 * access token, an ID token when `openid` was granted, and the refresh token when there is one.
 */
import type { UserRecord } from "../../db/queries/users";
import type { Deps } from "../deps";
import { signProviderAccessToken } from "./access-token";
import type { OAuthProviderConfig } from "./config";
import { signIdToken } from "./id-token";

export type TokenResponseJson = {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
  id_token?: string;
  refresh_token?: string;
};

export type GrantTokensInput = {
  projectId: string;
  clientId: string;
  record: UserRecord;
  grantId: string;
  /** The scope of these tokens (a refresh may narrow the grant's). */
  scope: string;
  resource: string | null;
  teamId: string | null;
  authTime: number;
  amr: string[] | null;
  acr: string | null;
  /** Only on the code's redemption (a refreshed ID token carries none: OIDC Core §12.2). */
  nonce: string | null;
  refreshToken: string | null;
};

export async function grantTokens(deps: Deps, config: OAuthProviderConfig, input: GrantTokensInput): Promise<TokenResponseJson> {
  const ttlSeconds = config.accessTokenTtlSeconds;
  const accessToken = await signProviderAccessToken(deps, {
    projectId: input.projectId,
    userId: input.record.user.id,
    clientId: input.clientId,
    scope: input.scope,
    resource: input.resource,
    grantId: input.grantId,
    authTime: input.authTime,
    teamId: input.teamId,
    amr: input.amr,
    acr: input.acr,
    ttlSeconds,
  });
  const scopes = input.scope.split(" ");
  const idToken = scopes.includes("openid")
    ? await signIdToken(deps, {
        projectId: input.projectId,
        clientId: input.clientId,
        record: input.record,
        scopes,
        teamId: input.teamId,
        authTime: input.authTime,
        nonce: input.nonce,
        amr: input.amr,
        acr: input.acr,
        accessToken,
        ttlSeconds,
      })
    : undefined;
  return {
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: ttlSeconds,
    scope: input.scope,
    ...(idToken ? { id_token: idToken } : {}),
    ...(input.refreshToken ? { refresh_token: input.refreshToken } : {}),
  };
}
