/**
 * The `WWW-Authenticate` challenge a resource server answers when a request has no usable access
 * token (RFC 6750 §3) and where its protected-resource metadata lives (RFC 9728 §5.1), so that a
 * client that knows nothing about the server (an MCP client) can find the authorization server.
 */

/** The RFC 6750 §3.1 error codes a resource server answers with. */
export type BearerErrorCode = "invalid_request" | "invalid_token" | "insufficient_scope";

export type WwwAuthenticateOptions = {
  /** Where the RFC 9728 metadata of this resource is (see `protectedResourceMetadataUrl`). */
  resourceMetadataUrl?: string;
  /** Absent when the request carried no token at all (RFC 6750 §3.1: then no error code). */
  error?: BearerErrorCode;
  /** For developers, not end users (RFC 6750 §3). */
  errorDescription?: string;
  /** The scopes the request needs (space-separated or a list): with insufficient_scope, what to ask for. */
  scope?: string | readonly string[];
  realm?: string;
};

/**
 * The value of a `WWW-Authenticate: Bearer …` header.
 *
 * @example
 * res.setHeader("WWW-Authenticate", wwwAuthenticate({
 *   resourceMetadataUrl: "https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
 *   error: "invalid_token", errorDescription: "The access token expired.",
 * }));
 * // Bearer error="invalid_token", error_description="The access token expired.", resource_metadata="https://…"
 */
export function wwwAuthenticate(options: WwwAuthenticateOptions = {}): string {
  const params: string[] = [];
  const add = (name: string, value: string | undefined) => {
    if (value !== undefined && value !== "") params.push(`${name}="${quotable(value)}"`);
  };
  add("realm", options.realm);
  add("error", options.error);
  add("error_description", options.errorDescription);
  const scope = typeof options.scope === "string" ? options.scope : options.scope?.join(" ");
  add("scope", scope);
  add("resource_metadata", options.resourceMetadataUrl);
  return params.length ? `Bearer ${params.join(", ")}` : "Bearer";
}

/**
 * Only the characters RFC 6750 §3 allows inside the quoted values (%x20-21 / %x23-5B / %x5D-7E):
 * a quote, a backslash or a line break from a caller cannot end the parameter or the header.
 */
function quotable(value: string): string {
  return value.replace(/[^\x20\x21\x23-\x5B\x5D-\x7E]/g, "");
}
