/**
 * Enterprise SSO (issue 31): the paths and names every part of the feature agrees on, without zod:
 * the SDK imports these at run time (sign-in, the team admin methods, the setup page), and a runtime
 * import of a file with zod schemas would bring zod into the SDK's bundles. wire-sso.ts re-exports
 * all of it beside the management API's zod schemas. All paths are under `/api/v1`.
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

/* ---------------------------------------------------------------------------------------------
 * Management (ADMIN): a team's connections, domains, SCIM token, setup links and SSO events.
 * Access: client (the user's session with `$update_team` in the team, or a setup link's token in
 * the SSO_SETUP_TOKEN_HEADER, on that one team), server and admin.
 * ------------------------------------------------------------------------------------------- */
/** The header a setup link's token travels in: it grants these routes on the link's team only. */
export const SSO_SETUP_TOKEN_HEADER = "x-doorman-sso-setup-token";
/** The hosted handler page of a setup link: `{hosted pages}/sso-setup#token=…`. */
export const SSO_SETUP_PAGE = "sso-setup";
/** A setup link lives 7 days unless asked otherwise, 30 at most. */
export const SSO_SETUP_LINK_DEFAULT_TTL_MS = 7 * 24 * 3600 * 1000;
export const SSO_SETUP_LINK_MAX_TTL_MS = 30 * 24 * 3600 * 1000;
/** The SCIM bearer token's prefix (`dmscim_` + 43 random characters). */
export const SCIM_TOKEN_PREFIX = "dmscim_";

export const SSO_MANAGEMENT_PATHS = {
  /** GET ?team_id= (list), POST (create). */
  connections: "/sso/connections",
  /** GET, PATCH, DELETE. */
  connection: (id: string) => `/sso/connections/${id}`,
  /** POST: a new SCIM bearer token, answered once. */
  scimToken: (id: string) => `/sso/connections/${id}/scim-token`,
  /** GET: a SAML connection's SP metadata XML to download (drafts included, unlike the public metadata URL). */
  spMetadata: (id: string) => `/sso/connections/${id}/sp-metadata`,
  /** GET: the connection's last SCIM calls (its scim.* events). */
  scimCalls: (id: string) => `/sso/connections/${id}/scim-calls`,
  /** GET ?team_id= (list), POST (claim). */
  domains: "/sso/domains",
  /** PATCH, DELETE. */
  domain: (id: string) => `/sso/domains/${id}`,
  /** POST: look the TXT record up now. */
  verifyDomain: (id: string) => `/sso/domains/${id}/verify`,
  /** POST: a setup link for a team's IT admin. */
  setupLinks: "/sso/setup-links",
  /** GET with the setup token header: the link's team. */
  currentSetupLink: "/sso/setup-links/current",
  /** GET ?team_id=: the team's "Enterprise SSO" events. */
  events: "/sso/events",
} as const;
