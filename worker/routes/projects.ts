/** /projects/current (client view) and the public JWKS of each project. */

import { projectClientSchema } from "@doorman/shared/wire";
import { jwksSchema } from "@doorman/shared/wire-misc";
import { z } from "zod";
import { addRoute, defineRoute, routeGroup } from "../http/route";
import { queryBool } from "../http/validate";
import { etagMatches, projectJwksDocument } from "../services/jwks";
import { projectClientView } from "../views/projects";

const projectIdParams = z.strictObject({ projectId: z.string() });

const getCurrent = defineRoute({
  method: "get",
  path: "/current",
  summary: "The current project (client view)",
  access: ["client", "server", "admin"],
  response: projectClientSchema,
});

// The wire's header (wire-protocol §4). Keys derive from SERVER_SECRET and change only with it; a
// verifier holding a cached set refetches when it meets an unknown kid (jose's remote JWKS does).
// The ETag makes a revalidation a 304 without a body.
const JWKS_CACHE_CONTROL = "public, max-age=3600";

const getJwks = defineRoute({
  method: "get",
  path: "/{projectId}/.well-known/jwks.json",
  summary: "The project's public signing keys (JWKS)",
  description: "include_anonymous adds the keys of anonymous users' tokens, and implies include_restricted.",
  access: "public",
  params: projectIdParams,
  query: z.strictObject({ include_anonymous: queryBool.optional(), include_restricted: queryBool.optional() }),
  response: [
    { status: 200, description: `The JWKS, with an ETag (cache-control: ${JWKS_CACHE_CONTROL})`, schema: jwksSchema },
    { status: 304, description: "Not modified: If-None-Match names the current ETag (no body)" },
    { status: 404, description: "No such project (plain text)", schema: z.string(), contentType: "text/plain" },
  ],
});

export const projectsRoutes = routeGroup();
addRoute(projectsRoutes, getCurrent, (c, { auth }) => c.json(projectClientView(auth.project, c.get("deps").config.turnstile.scriptUrl)));
addRoute(projectsRoutes, getJwks, async (c, { params, query }) => {
  const doc = await projectJwksDocument(c.get("deps"), params.projectId, {
    includeAnonymous: query.include_anonymous ?? false,
    includeRestricted: query.include_restricted ?? false,
  });
  if (!doc) return c.text("Project not found", 404);
  const headers = { "cache-control": JWKS_CACHE_CONTROL, etag: doc.etag };
  if (etagMatches(c.req.header("if-none-match"), doc.etag)) return c.body(null, 304, headers);
  return c.body(doc.body, 200, { ...headers, "content-type": "application/json" });
});

const anonymousJwks = defineRoute({
  method: "get",
  path: "/{projectId}/.well-known/{file}",
  summary: "OIDC alias: redirects to the project's JWKS including anonymous users' keys",
  access: "public",
  params: z.strictObject({ projectId: z.string(), file: z.string() }),
  response: { status: 307, description: "Redirect to /projects/{projectId}/.well-known/{file}?include_anonymous=true" },
});

/** /projects-anonymous-users/{id}/.well-known/{file} → the JWKS including anonymous keys (OIDC alias). */
export const anonymousProjectsRoutes = routeGroup();
addRoute(anonymousProjectsRoutes, anonymousJwks, (c) => {
  const url = new URL(c.req.url);
  const target = url.pathname.replace("/projects-anonymous-users/", "/projects/");
  return c.redirect(`${target}?include_anonymous=true`, 307);
});
