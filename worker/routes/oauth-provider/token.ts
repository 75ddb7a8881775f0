/**
 * POST {issuer}/oauth/token (RFC 6749 §3.2; form-encoded, JSON also read): the client authenticates
 * (client_secret_basic, client_secret_post, private_key_jwt or none), then redeems an authorization
 * code or a refresh token. Answers carry no-store; errors are RFC 6749 JSON.
 */
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { authenticateClient } from "../../services/oauth-provider/client-auth";
import { redeemAuthorizationCode } from "../../services/oauth-provider/code-grant";
import { protocolError } from "../../services/oauth-provider/protocol-error";
import { issuerOf, providerConfigOf } from "../../services/oauth-provider/provider";
import { refreshGrant } from "../../services/oauth-provider/refresh-grant";
import { loadProjectCached } from "../../services/seed";
import { clientCredentialsOf, NO_STORE, protocolErrorResponse, rawParams, repeatedNames } from "./respond";
import { issuerParams, notFoundResponse, oauthErrorSchema, tokenBodySchema, tokenResponseSchema } from "./wire";

const token = defineRoute({
  method: "post",
  path: "/{projectId}/oauth/token",
  summary: "Token endpoint (OpenID provider)",
  description:
    "grant_type=authorization_code (PKCE verifier required; a reused code revokes what it issued) or refresh_token " +
    "(rotated; a reused one revokes the grant). Client authentication: client_secret_basic, client_secret_post, " +
    "private_key_jwt (RFC 7523) or none (public clients), whichever the client registered.",
  access: "public",
  errorFormat: "oauth",
  params: issuerParams,
  body: tokenBodySchema,
  bodyMediaTypes: ["application/x-www-form-urlencoded", "application/json"],
  response: [
    tokenResponseSchema,
    {
      status: 400,
      description:
        "RFC 6749 §5.2 error: invalid_request, invalid_grant, invalid_scope, invalid_target, unauthorized_client, unsupported_grant_type",
      schema: oauthErrorSchema,
    },
    { status: 401, description: "invalid_client, with WWW-Authenticate", schema: oauthErrorSchema },
    notFoundResponse,
  ],
});

export const oauthTokenEndpointRoutes = routeGroup();
addRoute(oauthTokenEndpointRoutes, token, async (c, { params, body }) => {
  const deps = c.get("deps");
  const project = await loadProjectCached(deps, params.projectId);
  if (!project) return c.text("Project not found", 404);
  const issuer = issuerOf(deps, project.id);
  const fail = (err: Parameters<typeof protocolErrorResponse>[1]) => protocolErrorResponse(c, err, issuer);
  const repeated = repeatedNames(await rawParams(c));
  // RFC 6749 §3.2: a parameter must not be sent twice.
  if (repeated.length) return fail(protocolError("invalid_request", `The parameter ${repeated[0]} is repeated.`));
  if (!body.grant_type) return fail(protocolError("invalid_request", "grant_type is required."));
  const authenticated = await authenticateClient(deps, project, clientCredentialsOf(c, body), "token");
  if (!authenticated.ok) return fail(authenticated);
  if (!providerConfigOf(project).enabled)
    return fail(protocolError("unauthorized_client", "This provider does not accept apps at the moment."));
  const client = authenticated.client;
  let result: Awaited<ReturnType<typeof redeemAuthorizationCode>>;
  if (body.grant_type === "authorization_code") {
    result = await redeemAuthorizationCode(deps, project, client, {
      code: body.code,
      redirectUri: body.redirect_uri,
      codeVerifier: body.code_verifier,
      resource: body.resource,
    });
  } else if (body.grant_type === "refresh_token") {
    result = await refreshGrant(deps, project, client, { refreshToken: body.refresh_token, scope: body.scope, resource: body.resource });
  } else {
    // No implicit, password or client_credentials grant (OAuth 2.1).
    return fail(protocolError("unsupported_grant_type", "Only authorization_code and refresh_token are supported."));
  }
  if (!result.ok) return fail(result);
  return c.json(result.tokens, 200, NO_STORE);
});
