/**
 * POST /internal/impersonation-links: an owner's one-time code that opens the project's app signed
 * in as a user (services/auth/impersonation-links.ts), with the app's page that redeems it.
 */
import { impersonationLinkBodySchema, impersonationLinkSchema } from "@doorman/shared/wire-impersonation";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { createImpersonationLink } from "../../services/auth/impersonation-links";

const create = defineRoute({
  method: "post",
  path: "/",
  summary:
    "A one-time impersonation code for a user (five minutes, single use), with the URL of the app's handler page that redeems it (the first trusted domain; null without one)",
  access: ["admin"],
  body: impersonationLinkBodySchema,
  response: impersonationLinkSchema,
  errors: ["USER_NOT_FOUND"],
});

export const impersonationLinksRoutes = routeGroup();
addRoute(impersonationLinksRoutes, create, async (c, { auth, body }) => {
  const link = unwrap(await createImpersonationLink(c.get("deps"), auth.project, body.user_id));
  return c.json({ code: link.code, expires_at_millis: link.expiresAt, url: link.url });
});
