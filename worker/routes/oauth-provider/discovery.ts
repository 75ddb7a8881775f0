/**
 * The provider's metadata (OpenID Connect Discovery, RFC 8414) under the issuer, at both well-known
 * names, and at the origin's RFC 8414 §3.1 path-insertion forms
 * (`/.well-known/oauth-authorization-server/api/v1/projects/{id}`, which the MCP SDK asks first).
 */
import { OAUTH_PROVIDER_PATHS } from "@doorman/shared/wire-oauth-provider";
import type { Context } from "hono";
import type { AppEnv } from "../../http/hono-env";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { providerMetadata } from "../../services/oauth-provider/metadata";
import { loadProjectCached } from "../../services/seed";
import { protocolErrorHandler } from "./respond";
import { issuerParams, notFoundResponse, providerMetadataSchema } from "./wire";

/** Settings change the document (registration, scopes): a few minutes of caching, no more. */
const METADATA_CACHE_CONTROL = "public, max-age=300";

const described = (path: string, summary: string) =>
  defineRoute({
    method: "get",
    path,
    summary,
    description:
      "The same document at {issuer}/.well-known/openid-configuration and {issuer}/.well-known/oauth-authorization-server, " +
      "and at the origin's RFC 8414 path-insertion forms /.well-known/{name}/api/v1/projects/{projectId}.",
    access: "public",
    errorFormat: "oauth",
    params: issuerParams,
    response: [providerMetadataSchema, notFoundResponse],
  });

const openidConfiguration = described(
  `/{projectId}${OAUTH_PROVIDER_PATHS.openidConfiguration}`,
  "OpenID provider metadata (OIDC Discovery)",
);
const authorizationServerMetadata = described(
  `/{projectId}${OAUTH_PROVIDER_PATHS.authorizationServerMetadata}`,
  "OAuth authorization server metadata (RFC 8414)",
);

async function serveMetadata(c: Context<AppEnv>, projectId: string): Promise<Response> {
  const deps = c.get("deps");
  const project = await loadProjectCached(deps, projectId);
  if (!project) return c.text("Project not found", 404);
  return c.json(providerMetadata(deps, project), 200, { "cache-control": METADATA_CACHE_CONTROL });
}

/** Under the issuer: mounted at /projects beside the project's JWKS. */
export const oauthDiscoveryRoutes = routeGroup();
addRoute(oauthDiscoveryRoutes, openidConfiguration, (c, { params }) => serveMetadata(c, params.projectId));
addRoute(oauthDiscoveryRoutes, authorizationServerMetadata, (c, { params }) => serveMetadata(c, params.projectId));

/** RFC 8414 §3.1 path insertion at the origin: mounted at /.well-known (outside /api, so not in the OpenAPI document). */
export const originDiscoveryRoutes = routeGroup().onError(protocolErrorHandler);
addRoute(
  originDiscoveryRoutes,
  described("/oauth-authorization-server/api/v1/projects/{projectId}", "OAuth authorization server metadata (RFC 8414 path insertion)"),
  (c, { params }) => serveMetadata(c, params.projectId),
);
addRoute(
  originDiscoveryRoutes,
  described("/openid-configuration/api/v1/projects/{projectId}", "OpenID provider metadata (path insertion)"),
  (c, { params }) => serveMetadata(c, params.projectId),
);
