/**
 * /sso/setup-links (issue 31, ADMIN): a self-serve link for a team's IT admin (made by the team's
 * admins or the project's owners, never by another link), and the link's team as its page reads it.
 */

import { KnownError } from "@doorman/shared/known-errors";
import { SSO_SETUP_TOKEN_HEADER, ssoSetupLinkCreateSchema, ssoSetupLinkInfoSchema, ssoSetupLinkSchema } from "@doorman/shared/wire-sso";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { createSsoSetupLink, readSsoSetupLink } from "../../services/sso/setup-links";
import { SSO_ACCESS_ERRORS, ssoManager } from "./manager";

const create = defineRoute({
  method: "post",
  path: "/",
  summary:
    "A setup link for a team's IT admin: the hosted sso-setup page, good for that team's SSO until it expires (default 7 days, 30 at most)",
  access: ["client", "server", "admin"],
  body: ssoSetupLinkCreateSchema,
  response: { status: 201, description: "The link (its token is in the fragment) and when it expires", schema: ssoSetupLinkSchema },
  errors: [...SSO_ACCESS_ERRORS, "SCHEMA_ERROR"],
});
const current = defineRoute({
  method: "get",
  path: "/current",
  summary: `The team of the setup link whose token is in the ${SSO_SETUP_TOKEN_HEADER} header`,
  access: ["client"],
  response: ssoSetupLinkInfoSchema,
  errors: ["SSO_SETUP_LINK_INVALID", "TEAM_NOT_FOUND"],
});

export const ssoSetupLinksRoutes = routeGroup();
addRoute(ssoSetupLinksRoutes, create, async (c, { auth, body }) => {
  const manager = await ssoManager(c, auth);
  const link = unwrap(await createSsoSetupLink(c.get("deps"), auth.project, body.team_id, manager, body.expires_in_millis)).value;
  return c.json({ url: link.url, expires_at_millis: link.expiresAt }, 201);
});
addRoute(ssoSetupLinksRoutes, current, async (c, { auth }) => {
  const token = c.req.header(SSO_SETUP_TOKEN_HEADER);
  if (token === undefined) throw new KnownError("SSO_SETUP_LINK_INVALID");
  const { team, expiresAt } = unwrap(await readSsoSetupLink(c.get("deps"), auth.project.id, token)).value;
  return c.json({ team_id: team.id, team_display_name: team.displayName, expires_at_millis: expiresAt });
});
