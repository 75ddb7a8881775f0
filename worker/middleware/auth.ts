/** Authenticates every API request (wire §1) and keeps last_active_at current. */
import type { MiddlewareHandler } from "hono";
import { touchUserActivity } from "../db/queries/users";
import type { AppEnv } from "../http/hono-env";
import { resolveRequestAuth } from "../services/request-auth";
import { stackHeader } from "./headers";

export const authenticate: MiddlewareHandler<AppEnv> = async (c, next) => {
  const deps = c.get("deps");
  const allowAnonymousUser = stackHeader(c, "allow-anonymous-user") === "true";
  const auth = await resolveRequestAuth(deps, {
    projectId: stackHeader(c, "project-id"),
    accessType: stackHeader(c, "access-type"),
    branchId: stackHeader(c, "branch-id"),
    publishableClientKey: stackHeader(c, "publishable-client-key"),
    secretServerKey: stackHeader(c, "secret-server-key"),
    superSecretAdminKey: stackHeader(c, "super-secret-admin-key"),
    adminAccessToken: stackHeader(c, "admin-access-token"),
    accessToken: stackHeader(c, "access-token"),
    allowAnonymousUser,
    // allow-anonymous implies allow-restricted (wire §1).
    allowRestrictedUser: allowAnonymousUser || stackHeader(c, "allow-restricted-user") === "true",
  });
  c.set("auth", auth);
  if (auth) {
    // The actor of what this request changes: the signed-in user on a client request, else the access
    // level, named by the owner whose admin access token authenticated it (an owner's token keeps the level).
    if (auth.type === "client") deps.audit.actorType = auth.user ? "user" : "system";
    else deps.audit.actorType = auth.type;
    deps.audit.actorId = auth.type === "client" ? (auth.user?.user.id ?? null) : auth.adminUserId;
  }
  if (auth?.user && auth.user.user.lastActiveAt < deps.now() - 60_000) {
    deps.defer(touchUserActivity(deps.db, auth.user.user.id, deps.now()));
  }
  await next();
};
