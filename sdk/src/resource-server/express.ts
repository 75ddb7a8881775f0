/**
 * Express / connect middleware for an API that accepts Doorman-issued OAuth access tokens
 * (`@doorman/sdk/resource-server/express`), written against Node's request and response only:
 * `requireDoormanToken` verifies the bearer token and sets `req.auth` in the shape the MCP SDK's
 * server reads (its `AuthInfo`: token, clientId, scopes, expiresAt, resource, extra), or answers
 * 401/403 with the RFC 6750 + RFC 9728 challenge; `protectedResourceMetadataHandler` serves the
 * API's RFC 9728 metadata.
 */
import { type AuthInfo, mcpAuthInfo } from "./auth-info";
import { bearerGuard, type RequireTokenOptions } from "./bearer";
import { type ProtectedResourceMetadataOptions, protectedResourceMetadata, protectedResourceMetadataPaths } from "./metadata";
import type { VerifiedOAuthAccessToken } from "./verify";

export type { AuthInfo } from "./auth-info";
export type { RequireTokenOptions } from "./bearer";

/** What the middleware needs of a request (Express's and connect's are Node's IncomingMessage). */
export type NodeRequest = {
  headers: Record<string, string | string[] | undefined>;
  method?: string;
  url?: string;
  /** Express: the URL before mounting stripped a prefix. */
  originalUrl?: string;
  auth?: AuthInfo;
  doormanToken?: VerifiedOAuthAccessToken;
};

/** What the middleware needs of a response (Node's ServerResponse). */
export type NodeResponse = {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(chunk?: string): unknown;
};

export type NextFunction = (error?: unknown) => void;

/**
 * Requires a Doorman-issued access token for this API on every request it guards.
 *
 * @example
 * app.use(protectedResourceMetadataHandler({ resource, authorizationServers: [issuer] }));
 * app.post("/mcp", requireDoormanToken({ issuer, audience: resource }), (req, res) => {
 *   // req.auth.clientId, req.auth.scopes, req.auth.extra.userId; the MCP transport reads req.auth itself.
 * });
 */
export function requireDoormanToken(options: RequireTokenOptions): (req: NodeRequest, res: NodeResponse, next: NextFunction) => void {
  const guard = bearerGuard(options);
  return (req, res, next) => {
    const header = req.headers.authorization;
    guard(Array.isArray(header) ? undefined : header).then((outcome) => {
      if (!outcome.ok) {
        const { status, headers, body } = outcome.refusal;
        res.statusCode = status;
        for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
        res.end(JSON.stringify(body));
        return;
      }
      req.doormanToken = outcome.verified;
      req.auth = mcpAuthInfo(outcome.token, outcome.verified);
      next();
    }, next);
  };
}

/**
 * Answers GET (and HEAD) on this API's RFC 9728 metadata paths (`/.well-known/oauth-protected-resource`
 * and its path-suffixed form); any other request goes on to `next`. Mount it before the routes.
 */
export function protectedResourceMetadataHandler(
  options: ProtectedResourceMetadataOptions,
): (req: NodeRequest, res: NodeResponse, next: NextFunction) => void {
  const doc = JSON.stringify(protectedResourceMetadata(options));
  const paths = new Set(protectedResourceMetadataPaths(options.resource));
  return (req, res, next) => {
    const path = new URL(req.originalUrl ?? req.url ?? "/", "http://local").pathname;
    if ((req.method !== "GET" && req.method !== "HEAD") || !paths.has(path)) return next();
    res.statusCode = 200;
    res.setHeader("content-type", "application/json");
    // Public metadata: any origin may read it (browser-based MCP clients).
    res.setHeader("access-control-allow-origin", "*");
    res.setHeader("cache-control", "public, max-age=300");
    res.end(req.method === "HEAD" ? undefined : doc);
  };
}
