/**
 * Enterprise SSO (issue 31): the paths every part of the feature agrees on. The zod schemas of the
 * management API (connections, domains, setup links) are added below by the feature that owns them.
 * All paths are under `/api/v1`.
 */

export const SSO_PATHS = {
  /** GET ?email= (client access): does this email's domain route to a team's SSO connection? */
  lookup: "/auth/sso/lookup",
  /** GET: starts an SSO sign-in (the outer OAuth params of /auth/oauth/authorize plus `email` or `connection_id`); 302 to the IdP. */
  authorize: "/auth/sso/authorize",
  /** GET: the connection's SAML SP metadata (XML). */
  samlMetadata: (connectionId: string) => `/auth/sso/saml/${connectionId}/metadata`,
  /** POST (HTTP-POST binding): the Assertion Consumer Service. */
  samlAcs: (connectionId: string) => `/auth/sso/saml/${connectionId}/acs`,
  /** GET: the OIDC connection's redirect URI at Doorman. */
  oidcCallback: (connectionId: string) => `/auth/sso/oidc/${connectionId}/callback`,
  /** The SCIM 2.0 base URL of a connection (RFC 7644): /Users, /Groups, /ServiceProviderConfig, /ResourceTypes, /Schemas. */
  scimBase: (connectionId: string) => `/scim/${connectionId}`,
} as const;

/** The DNS TXT record that proves a team owns a domain: name and value. */
export const SSO_DOMAIN_TXT_PREFIX = "_doorman-verification";
export const ssoDomainTxtName = (domain: string) => `${SSO_DOMAIN_TXT_PREFIX}.${domain}`;
export const ssoDomainTxtValue = (token: string) => `doorman-verification=${token}`;

/** The SAML SP entity id of a connection: its metadata URL (unique per connection, stable). */
export const samlSpEntityId = (apiUrl: string, connectionId: string) => `${apiUrl}/api/v1${SSO_PATHS.samlMetadata(connectionId)}`;

/** The hosted handler page an IdP-initiated SAML login bounces to (it starts an SP-initiated sign-in for the connection). */
export const SSO_CONNECTION_QUERY_PARAM = "sso_connection_id";
