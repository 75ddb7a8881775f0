/**
 * POST {issuer}/oauth/revoke (RFC 7009): the client authenticates as at the token endpoint (a public
 * client names itself with client_id); revoking an access or refresh token revokes its whole grant.
 * Unknown, expired or another client's tokens answer 200 too, and change nothing.
 */
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { authenticateClient } from "../../services/oauth-provider/client-auth";
import { protocolError } from "../../services/oauth-provider/protocol-error";
import { issuerOf } from "../../services/oauth-provider/provider";
import { revokeToken } from "../../services/oauth-provider/revocation";
import { loadProjectCached } from "../../services/seed";
import { clientCredentialsOf, NO_STORE, protocolErrorResponse } from "./respond";
import { issuerParams, notFoundResponse, oauthErrorSchema, tokenQueryBodySchema } from "./wire";

const revoke = defineRoute({
  method: "post",
  path: "/{projectId}/oauth/revoke",
  summary: "Token revocation (RFC 7009, OpenID provider)",
  description:
    "Revokes the grant of an access or refresh token: the refresh token, its successors and every access token issued under it. " +
    "Answers 200 with an empty body whether or not the token was known.",
  access: "public",
  errorFormat: "oauth",
  params: issuerParams,
  body: tokenQueryBodySchema,
  bodyMediaTypes: ["application/x-www-form-urlencoded", "application/json"],
  response: [
    { status: 200, description: "Revoked, or nothing to revoke (empty body)" },
    { status: 400, description: "invalid_request: no token", schema: oauthErrorSchema },
    { status: 401, description: "invalid_client, with WWW-Authenticate", schema: oauthErrorSchema },
    notFoundResponse,
  ],
});

export const oauthRevokeRoutes = routeGroup();
addRoute(oauthRevokeRoutes, revoke, async (c, { params, body }) => {
  const deps = c.get("deps");
  const project = await loadProjectCached(deps, params.projectId);
  if (!project) return c.text("Project not found", 404);
  const issuer = issuerOf(deps, project.id);
  const authenticated = await authenticateClient(deps, project, clientCredentialsOf(c, body), "revocation");
  if (!authenticated.ok) return protocolErrorResponse(c, authenticated, issuer);
  if (!body.token) return protocolErrorResponse(c, protocolError("invalid_request", "token is required."), issuer);
  await revokeToken(deps, project, authenticated.client, body.token, body.token_type_hint);
  return c.body(null, 200, NO_STORE);
});
