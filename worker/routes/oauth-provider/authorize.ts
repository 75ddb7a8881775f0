/**
 * GET and POST {issuer}/oauth/authorize: an app sends the user here; a good request goes on to the
 * project's consent page (302; 303 after a POST), a refused one back to the app with the error, and
 * one whose client or redirect URI is not known good stops here with a plain explanation (400).
 */
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../http/hono-env";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { startAuthorization } from "../../services/oauth-provider/authorize";
import { loadProjectCached } from "../../services/seed";
import { rawParams, repeatedNames } from "./respond";
import { authorizeParamsSchema, issuerParams, notFoundResponse } from "./wire";

const responses = [
  { status: 302, description: "To the consent page, or back to the redirect URI with error, error_description, state and iss" },
  { status: 303, description: "The same after a POST" },
  {
    status: 400,
    description: "The client or redirect URI is unknown or mismatched: a plain-text explanation, never a redirect",
    schema: z.string(),
    contentType: "text/plain",
  },
  notFoundResponse,
] as const;

const common = {
  path: "/{projectId}/oauth/authorize",
  description:
    "The authorization endpoint (OAuth 2.1 code flow with PKCE S256; OpenID Connect). Refusals after the client and redirect URI " +
    "are checked go back to the redirect URI (RFC 6749 §4.1.2.1, with RFC 9207's iss).",
  access: "public",
  errorFormat: "oauth",
  params: issuerParams,
  rateLimit: { ip: "OAUTH_PROVIDER_AUTHORIZE_PER_IP" },
} as const;

const authorizeGet = defineRoute({
  ...common,
  method: "get",
  summary: "Authorization endpoint (OpenID provider)",
  query: authorizeParamsSchema,
  response: responses,
});

const authorizePost = defineRoute({
  ...common,
  method: "post",
  summary: "Authorization endpoint, form-encoded (OpenID provider)",
  body: authorizeParamsSchema,
  bodyMediaTypes: ["application/x-www-form-urlencoded"],
  response: responses,
});

async function authorize(c: Context<AppEnv>, projectId: string, params: z.infer<typeof authorizeParamsSchema>): Promise<Response> {
  const deps = c.get("deps");
  const project = await loadProjectCached(deps, projectId);
  if (!project) return c.text("Project not found", 404);
  const raw = await rawParams(c);
  const strings: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(params)) if (typeof value === "string") strings[key] = value;
  const outcome = await startAuthorization(deps, project, {
    params: strings,
    repeated: repeatedNames(raw),
    resources: raw.getAll("resource").length ? raw.getAll("resource") : strings.resource !== undefined ? [strings.resource] : [],
  });
  // Plain text: the browser shows it as text (nosniff), so nothing the request carried can become markup.
  if (outcome.kind === "invalid") return c.text(`This sign-in request cannot continue. ${outcome.description}`, 400);
  return c.redirect(outcome.location, c.req.method === "POST" ? 303 : 302);
}

export const oauthAuthorizeRoutes = routeGroup();
addRoute(oauthAuthorizeRoutes, authorizeGet, (c, { params, query }) => authorize(c, params.projectId, query));
addRoute(oauthAuthorizeRoutes, authorizePost, (c, { params, body }) => authorize(c, params.projectId, body));
