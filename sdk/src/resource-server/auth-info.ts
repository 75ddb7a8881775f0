/**
 * A verified Doorman token in the shape the MCP TypeScript SDK hands to tools (its `AuthInfo`,
 * @modelcontextprotocol/sdk/server/auth/types.js): the Express middleware sets it as `req.auth`; on
 * Hono or Workers, pass `mcpAuthInfo(c.var.doormanAccessToken, c.var.doormanToken)` as the
 * `authInfo` of the Web-standard transport's `handleRequest`.
 */
import type { VerifiedOAuthAccessToken } from "./verify";

export type AuthInfo = {
  token: string;
  clientId: string;
  scopes: string[];
  /** Seconds since the epoch. */
  expiresAt?: number;
  /** The RFC 8707 resource the token is for. */
  resource?: URL;
  /** Doorman's additions: userId, teamId, grantId and every claim. */
  extra?: Record<string, unknown>;
};

/**
 * @example
 * await transport.handleRequest(c.req.raw, { authInfo: mcpAuthInfo(c.var.doormanAccessToken, c.var.doormanToken) });
 */
export function mcpAuthInfo(token: string, verified: VerifiedOAuthAccessToken): AuthInfo {
  return {
    token,
    clientId: verified.clientId,
    scopes: verified.scopes,
    expiresAt: Math.floor(verified.expiresAtMillis / 1000),
    resource: new URL(verified.audience),
    extra: { userId: verified.userId, teamId: verified.teamId, grantId: verified.grantId, claims: verified.claims },
  };
}
