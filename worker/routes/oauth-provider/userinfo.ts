/**
 * GET and POST {issuer}/oauth/userinfo (OpenID Connect Core §5.3): the access token in the
 * Authorization: Bearer header, or (POST only) the form's access_token (RFC 6750 §2.2), never both.
 */
import type { Context } from "hono";
import type { AppEnv } from "../../http/hono-env";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { protocolError } from "../../services/oauth-provider/protocol-error";
import { issuerOf } from "../../services/oauth-provider/provider";
import { userInfo } from "../../services/oauth-provider/userinfo";
import { loadProjectCached } from "../../services/seed";
import { bearerChallenge, NO_STORE, protocolErrorResponse } from "./respond";
import { issuerParams, notFoundResponse, oauthErrorSchema, userinfoBodySchema, userinfoSchema } from "./wire";

const responses = [
  userinfoSchema,
  { status: 400, description: "invalid_request: the token was sent twice", schema: oauthErrorSchema },
  { status: 401, description: 'invalid_token, with WWW-Authenticate: Bearer error="invalid_token"', schema: oauthErrorSchema },
  { status: 403, description: "insufficient_scope: the token was not granted openid", schema: oauthErrorSchema },
  notFoundResponse,
] as const;

const common = {
  path: "/{projectId}/oauth/userinfo",
  description: "Claims by the granted scopes: sub; profile → name, picture; email → email, email_verified; team_id when team-bound.",
  access: "public",
  errorFormat: "oauth",
  params: issuerParams,
  response: responses,
} as const;

const userinfoGet = defineRoute({ ...common, method: "get", summary: "UserInfo endpoint (OpenID provider)" });
const userinfoPost = defineRoute({
  ...common,
  method: "post",
  summary: "UserInfo endpoint, POST (OpenID provider)",
  body: userinfoBodySchema,
  bodyMediaTypes: ["application/x-www-form-urlencoded"],
});

function bearerOf(header: string | undefined): string | undefined {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

async function answer(c: Context<AppEnv>, projectId: string, formToken: string | undefined): Promise<Response> {
  const deps = c.get("deps");
  const project = await loadProjectCached(deps, projectId);
  if (!project) return c.text("Project not found", 404);
  const issuer = issuerOf(deps, project.id);
  const headerToken = bearerOf(c.req.header("authorization"));
  // RFC 6750 §2: one way of sending the token per request.
  if (headerToken && formToken) return protocolErrorResponse(c, protocolError("invalid_request", "Send the access token once."), issuer);
  const token = headerToken ?? formToken;
  if (!token) return bearerChallenge(c, issuer);
  const result = await userInfo(deps, project, token);
  if (!result.ok) return protocolErrorResponse(c, result, issuer);
  return c.json(result.claims, 200, NO_STORE);
}

export const oauthUserinfoRoutes = routeGroup();
addRoute(oauthUserinfoRoutes, userinfoGet, (c, { params }) => answer(c, params.projectId, undefined));
addRoute(oauthUserinfoRoutes, userinfoPost, (c, { params, body }) => answer(c, params.projectId, body.access_token));
