/**
 * Hono middleware for an API that accepts Doorman-issued OAuth access tokens
 * (`@doorman/sdk/resource-server/hono`): `requireDoormanToken` verifies the bearer token and sets
 * `c.var.doormanToken`, or answers 401/403 with the RFC 6750 + RFC 9728 challenge;
 * `protectedResourceMetadataRoutes` serves the API's RFC 9728 metadata.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { bearerGuard, type RequireTokenOptions } from "./bearer";
import { type ProtectedResourceMetadataOptions, protectedResourceMetadata, protectedResourceMetadataPaths } from "./metadata";
import type { VerifiedOAuthAccessToken } from "./verify";

export { type AuthInfo, mcpAuthInfo } from "./auth-info";
export type { RequireTokenOptions } from "./bearer";

/** The variables the middleware sets: the verified token, and the raw one (to call Doorman's /userinfo with). */
export type DoormanTokenVariables = { doormanToken: VerifiedOAuthAccessToken; doormanAccessToken: string };
export type DoormanTokenEnv = { Variables: DoormanTokenVariables };

/**
 * Requires a Doorman-issued access token for this API on every request it guards.
 *
 * @example
 * const app = new Hono<DoormanTokenEnv>();
 * app.route("/", protectedResourceMetadataRoutes({ resource, authorizationServers: [issuer], scopesSupported: ["notes:read"] }));
 * app.use("/notes/*", requireDoormanToken({ issuer, audience: resource, requiredScopes: ["notes:read"] }));
 * app.get("/notes", (c) => c.json({ owner: c.var.doormanToken.userId }));
 */
export function requireDoormanToken(options: RequireTokenOptions): MiddlewareHandler<DoormanTokenEnv> {
  const guard = bearerGuard(options);
  return async (c, next) => {
    const outcome = await guard(c.req.header("authorization"));
    if (!outcome.ok) {
      const { status, headers, body } = outcome.refusal;
      return new Response(JSON.stringify(body), { status, headers });
    }
    c.set("doormanToken", outcome.verified);
    c.set("doormanAccessToken", outcome.token);
    await next();
  };
}

/**
 * A sub-app answering this API's RFC 9728 metadata at `/.well-known/oauth-protected-resource` and at
 * its path-suffixed form (`…/oauth-protected-resource/mcp` for the resource `https://host/mcp`).
 * Mount it at the root: `app.route("/", protectedResourceMetadataRoutes(options))`.
 */
export function protectedResourceMetadataRoutes(options: ProtectedResourceMetadataOptions): Hono {
  const doc = JSON.stringify(protectedResourceMetadata(options));
  const routes = new Hono();
  for (const path of protectedResourceMetadataPaths(options.resource)) {
    routes.get(path, () => new Response(doc, { headers: metadataHeaders() }));
  }
  return routes;
}

/** Public metadata: any origin may read it (browser-based MCP clients), and caches may keep it a while. */
function metadataHeaders(): Record<string, string> {
  return { "content-type": "application/json", "access-control-allow-origin": "*", "cache-control": "public, max-age=300" };
}
