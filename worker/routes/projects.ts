/** /projects/current (client view) and the public JWKS of each project. */
import { Hono } from "hono";
import { z } from "zod";
import { getSigningKey } from "../crypto/signing-keys";
import type { AppEnv } from "../lib/hono-env";
import { parseQuery, queryBool } from "../lib/validate";
import { requireAccess } from "../middleware/require";
import { loadProject } from "../services/seed";
import { projectClientView } from "../views/projects";

async function jwksFor(secrets: string[], audiences: string[]) {
  const keys = [];
  for (const secret of secrets) {
    for (const aud of audiences) {
      const key = await getSigningKey(secret, aud);
      keys.push({ ...key.publicJwk, alg: "ES256", kid: key.kid, use: "sig" });
    }
  }
  return { keys };
}

export const projectsRoutes = new Hono<AppEnv>()
  .get("/current", (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    return c.json(projectClientView(auth.project));
  })
  .get("/:projectId/.well-known/jwks.json", async (c) => {
    const q = parseQuery(c, z.strictObject({ include_anonymous: queryBool.optional(), include_restricted: queryBool.optional() }));
    const deps = c.get("deps");
    const project = await loadProject(deps, c.req.param("projectId"));
    if (!project) return c.text("Project not found", 404);
    const audiences = [project.id];
    // include_anonymous implies restricted (wire §4).
    if (q.include_restricted || q.include_anonymous) audiences.push(`${project.id}:restricted`);
    if (q.include_anonymous) audiences.push(`${project.id}:anon`);
    const secrets = [deps.tokenKeys.secret, ...(deps.tokenKeys.previousSecret ? [deps.tokenKeys.previousSecret] : [])];
    const body = await jwksFor(secrets, audiences);
    return c.json(body, 200, { "cache-control": "public, max-age=3600" });
  });

/** /projects-anonymous-users/{id}/.well-known/* → the JWKS including anonymous keys (OIDC alias). */
export const anonymousProjectsRoutes = new Hono<AppEnv>().get("/:projectId/.well-known/*", (c) => {
  const url = new URL(c.req.url);
  const target = url.pathname.replace("/projects-anonymous-users/", "/projects/");
  return c.redirect(`${target}?include_anonymous=true`, 307);
});
