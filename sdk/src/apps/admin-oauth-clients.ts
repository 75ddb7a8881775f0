/**
 * The admin app's OAuth client registry (Doorman as an OpenID provider, issue 30): the third-party
 * apps and agents that sign the project's users in, as camelCase objects. A create or a secret
 * rotation answers the secret once. StackAdminApp's methods delegate here.
 */
import type {
  OAuthClientAdminJson,
  OAuthClientCreateJson,
  OAuthClientUpdateJson,
  OAuthClientWithSecretJson,
} from "../shared/wire-oauth-provider";

type Request = <T>(path: string, options?: { method?: string; body?: unknown }) => Promise<T>;

export type OAuthClientType = OAuthClientAdminJson["client_type"];
export type OAuthTokenEndpointAuthMethod = OAuthClientAdminJson["token_endpoint_auth_method"];
/** A JWK Set of the client's public keys (private_key_jwt). */
export type OAuthClientJwks = { keys: Record<string, unknown>[] };

export type OAuthClient = {
  clientId: string;
  /** "console" (an owner registered it), "dynamic" (RFC 7591) or "metadata_document" (CIMD: the id is the document's URL). */
  source: OAuthClientAdminJson["source"];
  name: string;
  clientType: OAuthClientType;
  tokenEndpointAuthMethod: OAuthTokenEndpointAuthMethod;
  redirectUris: string[];
  /** Null: every scope the project offers. */
  allowedScopes: string[] | null;
  logoUri: string | null;
  clientUri: string | null;
  policyUri: string | null;
  tosUri: string | null;
  jwksUri: string | null;
  hasJwks: boolean;
  /** The secret's first characters, to tell secrets apart (null without a secret). */
  secretPrefix: string | null;
  createdAt: Date;
  updatedAt: Date;
};

/** A client with its secret: only in the answers of create and rotate (null for clients without one). */
export type OAuthClientWithSecret = { client: OAuthClient; clientSecret: string | null };

export type OAuthClientCreateOptions = {
  name: string;
  clientType: OAuthClientType;
  /** Defaults to `none` (public) or `client_secret_basic` (confidential). */
  tokenEndpointAuthMethod?: OAuthTokenEndpointAuthMethod;
  redirectUris: string[];
  allowedScopes?: string[] | null;
  logoUri?: string | null;
  clientUri?: string | null;
  policyUri?: string | null;
  tosUri?: string | null;
  jwks?: OAuthClientJwks | null;
  jwksUri?: string | null;
};

/** The fields to change (absent: unchanged; null: cleared). The client type is fixed. */
export type OAuthClientUpdateOptions = Partial<Omit<OAuthClientCreateOptions, "clientType">>;

export function oauthClientFromJson(c: OAuthClientAdminJson): OAuthClient {
  return {
    clientId: c.client_id,
    source: c.source,
    name: c.name,
    clientType: c.client_type,
    tokenEndpointAuthMethod: c.token_endpoint_auth_method,
    redirectUris: c.redirect_uris,
    allowedScopes: c.allowed_scopes,
    logoUri: c.logo_uri,
    clientUri: c.client_uri,
    policyUri: c.policy_uri,
    tosUri: c.tos_uri,
    jwksUri: c.jwks_uri,
    hasJwks: c.has_jwks,
    secretPrefix: c.secret_prefix,
    createdAt: new Date(c.created_at_millis),
    updatedAt: new Date(c.updated_at_millis),
  };
}

const withSecret = (json: OAuthClientWithSecretJson): OAuthClientWithSecret => ({
  client: oauthClientFromJson(json),
  clientSecret: json.client_secret,
});

function fieldsToWire(o: OAuthClientUpdateOptions): OAuthClientUpdateJson {
  return {
    name: o.name,
    token_endpoint_auth_method: o.tokenEndpointAuthMethod,
    redirect_uris: o.redirectUris,
    allowed_scopes: o.allowedScopes,
    logo_uri: o.logoUri,
    client_uri: o.clientUri,
    policy_uri: o.policyUri,
    tos_uri: o.tosUri,
    jwks: o.jwks,
    jwks_uri: o.jwksUri,
  };
}

const clientPath = (clientId: string) => `/internal/oauth-clients/${encodeURIComponent(clientId)}`;

export async function listOAuthClients(request: Request): Promise<OAuthClient[]> {
  return (await request<{ items: OAuthClientAdminJson[] }>("/internal/oauth-clients")).items.map(oauthClientFromJson);
}

export async function createOAuthClient(request: Request, options: OAuthClientCreateOptions): Promise<OAuthClientWithSecret> {
  const body: OAuthClientCreateJson = {
    ...fieldsToWire(options),
    name: options.name,
    redirect_uris: options.redirectUris,
    client_type: options.clientType,
  };
  return withSecret(await request<OAuthClientWithSecretJson>("/internal/oauth-clients", { body }));
}

export async function getOAuthClient(request: Request, clientId: string): Promise<OAuthClient> {
  return oauthClientFromJson(await request<OAuthClientAdminJson>(clientPath(clientId)));
}

export async function updateOAuthClient(request: Request, clientId: string, options: OAuthClientUpdateOptions): Promise<OAuthClient> {
  return oauthClientFromJson(await request<OAuthClientAdminJson>(clientPath(clientId), { method: "PATCH", body: fieldsToWire(options) }));
}

export async function deleteOAuthClient(request: Request, clientId: string): Promise<void> {
  await request(clientPath(clientId), { method: "DELETE" });
}

export async function rotateOAuthClientSecret(request: Request, clientId: string): Promise<OAuthClientWithSecret> {
  return withSecret(await request<OAuthClientWithSecretJson>(`${clientPath(clientId)}/secret`, { method: "POST", body: {} }));
}
