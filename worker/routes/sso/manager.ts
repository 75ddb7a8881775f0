/**
 * Who manages enterprise SSO on this request (issue 31, ADMIN): server and admin access act as the
 * back end; a client acts through a setup link's token (header SSO_SETUP_TOKEN_HEADER), or else as
 * its signed-in user (held to `$update_team` by the services).
 */
import { SSO_SETUP_TOKEN_HEADER } from "@doorman/shared/wire-sso";
import type { Context } from "hono";
import type { AppEnv } from "../../http/hono-env";
import { unwrap } from "../../http/problems";
import { requireUser } from "../../http/request";
import type { RequestAuth } from "../../services/request-auth";
import { type SsoManager, setupLinkManager } from "../../services/sso/access";

/** The known errors every SSO management route can answer about its caller. */
export const SSO_ACCESS_ERRORS = [
  "CANNOT_GET_OWN_USER_WITHOUT_USER",
  "TEAM_MEMBERSHIP_NOT_FOUND",
  "TEAM_PERMISSION_REQUIRED",
  "TEAM_NOT_FOUND",
  "SSO_SETUP_LINK_INVALID",
] as const;

export async function ssoManager(c: Context<AppEnv>, auth: RequestAuth): Promise<SsoManager> {
  if (auth.type !== "client") return { kind: "backend" };
  const token = c.req.header(SSO_SETUP_TOKEN_HEADER);
  if (token !== undefined) return unwrap(await setupLinkManager(c.get("deps"), auth.project.id, token)).manager;
  return { kind: "member", userId: requireUser(auth).user.user.id };
}
