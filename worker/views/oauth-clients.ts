/**
 * OAuth clients as the wire shows them: the owners' registry view (never the secret, except once
 * where the route adds it) and the RFC 7591 registration answer.
 */
import type { OAuthClientAdminJson } from "@doorman/shared/wire-oauth-provider";
import type { OAuthClientRow } from "../db/queries/oauth-clients";

export function oauthClientAdminView(row: OAuthClientRow): OAuthClientAdminJson {
  return {
    client_id: row.clientId,
    source: row.source,
    name: row.name,
    client_type: row.clientType,
    token_endpoint_auth_method: row.tokenEndpointAuthMethod as OAuthClientAdminJson["token_endpoint_auth_method"],
    redirect_uris: row.redirectUris,
    allowed_scopes: row.allowedScopes ?? null,
    logo_uri: row.logoUri,
    client_uri: row.clientUri,
    policy_uri: row.policyUri,
    tos_uri: row.tosUri,
    jwks_uri: row.jwksUri,
    has_jwks: row.jwks !== null,
    secret_prefix: row.secretPrefix,
    created_at_millis: row.createdAt,
    updated_at_millis: row.updatedAt,
  };
}

/** RFC 7591 §3.2.1: the client id (and secret, with client_secret_expires_at 0: it does not expire) and the metadata as registered. */
export function registrationView(row: OAuthClientRow, secret: string | null, grantTypes: string[], responseTypes: string[]) {
  const optional = {
    scope: row.allowedScopes?.join(" "),
    logo_uri: row.logoUri,
    client_uri: row.clientUri,
    policy_uri: row.policyUri,
    tos_uri: row.tosUri,
    jwks_uri: row.jwksUri,
    jwks: row.jwks,
  };
  return {
    client_id: row.clientId,
    ...(secret === null ? {} : { client_secret: secret, client_secret_expires_at: 0 }),
    client_id_issued_at: Math.floor(row.createdAt / 1000),
    client_name: row.name,
    redirect_uris: row.redirectUris,
    token_endpoint_auth_method: row.tokenEndpointAuthMethod,
    grant_types: grantTypes,
    response_types: responseTypes,
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== null && v !== undefined)),
  };
}
