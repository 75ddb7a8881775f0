/**
 * The OpenID provider's expected failures. Its endpoints speak the protocols' own error wire
 * (RFC 6749 §4.1.2.1 / §5.2, RFC 6750 §3.1, RFC 7009, RFC 8707, OpenID Connect Core §3.1.2.6): a
 * JSON `{error, error_description}` or an error redirect, never the known-error catalogue. So these
 * services return a ProtocolError value (the `fail()` idiom's counterpart for this wire) and the
 * routes render it (routes/oauth-provider/respond.ts); nothing here is a KnownError.
 */

/** The error codes the endpoints answer, each from the RFC that defines it. */
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "unsupported_response_type"
  | "invalid_scope"
  | "invalid_target"
  | "access_denied"
  | "request_not_supported"
  | "request_uri_not_supported"
  | "registration_not_supported"
  | "invalid_token"
  | "insufficient_scope"
  | "unsupported_token_type";

export type ProtocolError = { ok: false; error: OAuthErrorCode; description: string };

/** An expected failure of a protocol endpoint. The description is for the app's developer: plain ASCII, no secrets. */
export function protocolError(error: OAuthErrorCode, description: string): ProtocolError {
  return { ok: false, error, description };
}
