/**
 * GET /hosted-pages: which project a hosted page belongs to (by id on Doorman's origin, or by the
 * Host of a custom domain), with its theme, the publishable key the pages use and where they may
 * return. Public: it tells nothing a visitor of the pages does not see.
 */
import { KnownError } from "@doorman/shared/known-errors";
import { hostedPagesQuerySchema, hostedPagesSchema } from "@doorman/shared/wire-hosted-pages";
import { unwrap } from "../http/problems";
import { addRoute, defineRoute, routeGroup } from "../http/route";
import { lookupHostedPages } from "../services/hosted-pages/lookup";

const read = defineRoute({
  method: "get",
  path: "/",
  summary: "The project of a hosted page, by project id or custom domain",
  description:
    "Exactly one of project_id and host. return_to (the page's after_auth_return_to, absolute) comes back only when it is a trusted URL of the project.",
  access: "public",
  query: hostedPagesQuerySchema,
  response: hostedPagesSchema,
  errors: ["PROJECT_NOT_FOUND", "SCHEMA_ERROR"],
});

export const hostedPagesRoutes = routeGroup();
addRoute(hostedPagesRoutes, read, async (c, { query }) => {
  if (Boolean(query.project_id) === Boolean(query.host)) {
    throw new KnownError("SCHEMA_ERROR", { message: "Give exactly one of project_id and host." });
  }
  const { pages } = unwrap(
    await lookupHostedPages(c.get("deps"), { projectId: query.project_id, host: query.host, returnTo: query.return_to }),
  );
  return c.json({
    project_id: pages.project.id,
    display_name: pages.project.displayName,
    logo_url: pages.project.logoUrl ?? null,
    publishable_client_key: pages.publishableClientKey,
    custom_domain: pages.customDomain,
    default_return_url: pages.defaultReturnUrl,
    return_to: pages.returnTo,
    trusted_origins: pages.trustedOrigins,
  });
});
