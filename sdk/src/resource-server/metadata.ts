/**
 * RFC 9728 OAuth 2.0 Protected Resource Metadata for an owner's API (for example an MCP server)
 * that accepts Doorman-issued tokens: the JSON document, and where it is served. A client that only
 * knows the API's URL reads it to find the authorization server (the Doorman project's issuer).
 */

export type ProtectedResourceMetadataOptions = {
  /** This API's resource identifier (RFC 8707): an absolute URL without a fragment, the tokens' `aud`. */
  resource: string;
  /** The issuers whose tokens this API accepts: a Doorman project's `{API_URL}/api/v1/projects/{projectId}`. */
  authorizationServers: readonly string[];
  /** The scopes a client may ask for to call this API (MCP clients ask for all of them when they sign in). */
  scopesSupported?: readonly string[];
  /** A human-readable name of this API. */
  resourceName?: string;
  /** A page for developers about this API. */
  resourceDocumentation?: string;
  resourcePolicyUri?: string;
  resourceTosUri?: string;
  /** How this API takes the token; Doorman's middleware reads only the Authorization header. */
  bearerMethodsSupported?: readonly ("header" | "body" | "query")[];
};

/** The JSON of RFC 9728 §2 (the members this API states; absent ones are omitted). */
export type ProtectedResourceMetadata = {
  resource: string;
  authorization_servers: string[];
  scopes_supported?: string[];
  bearer_methods_supported: string[];
  resource_name?: string;
  resource_documentation?: string;
  resource_policy_uri?: string;
  resource_tos_uri?: string;
};

const WELL_KNOWN = "/.well-known/oauth-protected-resource";

/**
 * The metadata document of a resource that accepts a Doorman project's tokens.
 *
 * @example
 * const metadata = protectedResourceMetadata({
 *   resource: "https://mcp.example.com/mcp",
 *   authorizationServers: ["https://auth.example.com/api/v1/projects/my-project-id"],
 *   scopesSupported: ["openid", "profile", "email"],
 *   resourceName: "Example MCP server",
 * });
 */
export function protectedResourceMetadata(options: ProtectedResourceMetadataOptions): ProtectedResourceMetadata {
  resourceUrl(options.resource);
  if (options.authorizationServers.length === 0) throw new TypeError("authorizationServers: name at least one issuer");
  for (const issuer of options.authorizationServers) resourceUrl(issuer);
  const doc: ProtectedResourceMetadata = {
    resource: options.resource,
    authorization_servers: [...options.authorizationServers],
    bearer_methods_supported: [...(options.bearerMethodsSupported ?? ["header"])],
  };
  if (options.scopesSupported) doc.scopes_supported = [...options.scopesSupported];
  if (options.resourceName) doc.resource_name = options.resourceName;
  if (options.resourceDocumentation) doc.resource_documentation = options.resourceDocumentation;
  if (options.resourcePolicyUri) doc.resource_policy_uri = options.resourcePolicyUri;
  if (options.resourceTosUri) doc.resource_tos_uri = options.resourceTosUri;
  return doc;
}

/**
 * Where a resource's metadata is (RFC 9728 §3.1): the well-known segment inserted between the host and
 * the path, a terminating slash after the host removed. This is the `resource_metadata` of the
 * `WWW-Authenticate` challenge.
 *
 * @example
 * protectedResourceMetadataUrl("https://mcp.example.com/mcp");
 * // "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
 */
export function protectedResourceMetadataUrl(resource: string): string {
  const url = resourceUrl(resource);
  const path = url.pathname === "/" ? "" : url.pathname;
  return `${url.origin}${WELL_KNOWN}${path}${url.search}`;
}

/**
 * The paths a server answers the metadata on: the path-suffixed form of RFC 9728 §3.1 and, for
 * clients that look only at the host's root, the bare well-known path.
 */
export function protectedResourceMetadataPaths(resource: string): string[] {
  const path = new URL(protectedResourceMetadataUrl(resource)).pathname;
  return path === WELL_KNOWN ? [WELL_KNOWN] : [path, WELL_KNOWN];
}

/** A resource identifier or issuer must be an absolute http(s) URL without a fragment (RFC 8707 §2, RFC 9728 §2). */
function resourceUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`not an absolute URL: ${value}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new TypeError(`not an http(s) URL: ${value}`);
  if (value.includes("#")) throw new TypeError(`a resource identifier has no fragment: ${value}`);
  return url;
}
