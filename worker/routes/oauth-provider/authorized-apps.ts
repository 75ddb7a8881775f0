/**
 * /oauth-provider/authorized-apps (issue 30): the third-party apps the signed-in user let in, for
 * account settings: what each may do and when it was last used, and revoking one (its consent and
 * every grant, so its tokens stop working).
 */

import { oauthAuthorizedAppSchema } from "@doorman/shared/wire-oauth-provider";
import { z } from "zod";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { listAuthorizedApps, revokeAuthorizedApp } from "../../services/oauth-provider/authorized-apps";

// Only the user's own apps, through their session: nobody lists or revokes another user's.
const access = ["client"] as const;

const list = defineRoute({
  method: "get",
  path: "/",
  summary: "Doorman: the apps the signed-in user authorized",
  access,
  user: true,
  response: z.object({ items: z.array(oauthAuthorizedAppSchema), is_paginated: z.literal(false) }),
});

const revoke = defineRoute({
  method: "delete",
  path: "/{clientId}",
  summary: "Doorman: revoke an authorized app (its consent and every grant of the user)",
  description: "A client id that is a URL (a client ID metadata document) is percent-encoded in the path.",
  access,
  user: true,
  params: z.strictObject({ clientId: z.string().min(1).max(2048) }),
  response: z.object({ success: z.literal(true) }),
  errors: ["OAUTH_AUTHORIZED_APP_NOT_FOUND"],
});

export const oauthAuthorizedAppsRoutes = routeGroup();
addRoute(oauthAuthorizedAppsRoutes, list, async (c, { auth }) => {
  const apps = await listAuthorizedApps(c.get("deps"), auth.project, auth.user.user.id);
  return c.json({
    items: apps.map((a) => ({
      client: a.client,
      scopes: a.scopes,
      team_id: a.teamId,
      authorized_at_millis: a.authorizedAt,
      last_used_at_millis: a.lastUsedAt,
    })),
    is_paginated: false as const,
  });
});
addRoute(oauthAuthorizedAppsRoutes, revoke, async (c, { auth, params }) => {
  unwrap(await revokeAuthorizedApp(c.get("deps"), auth.project, auth.user.user.id, params.clientId));
  return c.json({ success: true as const });
});
