/**
 * POST {issuer}/oauth/introspect (RFC 7662): a confidential client asks about its own tokens; the
 * project's back end (x-stack-access-type: server with its secret server key) about any of the
 * project's. A public client may not introspect (it could not keep a secret to prove who it is).
 */
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { authenticateClient } from "../../services/oauth-provider/client-auth";
import { type Introspector, introspectToken } from "../../services/oauth-provider/introspection";
import { protocolError } from "../../services/oauth-provider/protocol-error";
import { issuerOf } from "../../services/oauth-provider/provider";
import { loadProjectCached } from "../../services/seed";
import { clientCredentialsOf, NO_STORE, protocolErrorResponse } from "./respond";
import { introspectionSchema, issuerParams, notFoundResponse, oauthErrorSchema, tokenQueryBodySchema } from "./wire";

const introspect = defineRoute({
  method: "post",
  path: "/{projectId}/oauth/introspect",
  summary: "Token introspection (RFC 7662, OpenID provider)",
  description:
    "Authenticate as a confidential client (its own tokens only; another's answer active:false), or send the project's " +
    "secret server key (x-stack-access-type: server) to ask about any token of the project.",
  access: "public",
  errorFormat: "oauth",
  params: issuerParams,
  body: tokenQueryBodySchema,
  bodyMediaTypes: ["application/x-www-form-urlencoded", "application/json"],
  response: [
    introspectionSchema,
    { status: 400, description: "invalid_request: no token", schema: oauthErrorSchema },
    { status: 401, description: "invalid_client, with WWW-Authenticate", schema: oauthErrorSchema },
    notFoundResponse,
  ],
});

export const oauthIntrospectRoutes = routeGroup();
addRoute(oauthIntrospectRoutes, introspect, async (c, { auth, params, body }) => {
  const deps = c.get("deps");
  const project = await loadProjectCached(deps, params.projectId);
  if (!project) return c.text("Project not found", 404);
  const issuer = issuerOf(deps, project.id);
  let who: Introspector;
  // The project's own back end: its server (or admin) key, for this project only.
  if (auth && (auth.type === "server" || auth.type === "admin") && auth.project.id === project.id) who = { kind: "project" };
  else {
    const authenticated = await authenticateClient(deps, project, clientCredentialsOf(c, body), "introspection");
    if (!authenticated.ok) return protocolErrorResponse(c, authenticated, issuer);
    if (authenticated.method === "none")
      return protocolErrorResponse(c, protocolError("invalid_client", "A public client cannot introspect tokens."), issuer);
    who = { kind: "client", clientId: authenticated.client.clientId };
  }
  if (!body.token) return protocolErrorResponse(c, protocolError("invalid_request", "token is required."), issuer);
  return c.json(await introspectToken(deps, project, body.token, who, body.token_type_hint), 200, NO_STORE);
});
