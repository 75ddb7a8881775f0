/**
 * `@doorman/sdk/resource-server`: what an owner's API (or MCP server) needs to accept tokens a
 * Doorman project issued to third-party apps, with no framework: token verification, the RFC 9728
 * metadata document and the RFC 6750 challenge. The Hono and Express middleware are the
 * `@doorman/sdk/resource-server/hono` and `…/express` entries.
 */
export { type AuthInfo, mcpAuthInfo } from "./auth-info";
export {
  type ProtectedResourceMetadata,
  type ProtectedResourceMetadataOptions,
  protectedResourceMetadata,
  protectedResourceMetadataPaths,
  protectedResourceMetadataUrl,
} from "./metadata";
export {
  createResourceServerVerifier,
  JwksUnavailableError,
  type OAuthAccessTokenFailure,
  type OAuthAccessTokenResult,
  type OAuthAccessTokenVerifier,
  type ResourceServerVerifierOptions,
  type TokenIssuerOptions,
  type VerifiedOAuthAccessToken,
  verifyAccessToken,
} from "./verify";
export { type BearerErrorCode, type WwwAuthenticateOptions, wwwAuthenticate } from "./www-authenticate";
