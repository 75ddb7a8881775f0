/** POST /auth/impersonation/redeem: the app's handler page turns an impersonation code into an impersonation session. */
import { impersonationRedeemBodySchema, impersonationSessionSchema } from "@doorman/shared/wire-impersonation";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { ipInfoOf } from "../../lib/ip-info";
import { redeemImpersonationCode } from "../../services/auth/impersonation-links";
import { CODE_ERRORS } from "./common";

const redeem = defineRoute({
  method: "post",
  path: "/redeem",
  summary: "Redeem a one-time impersonation code (from an owner's impersonation link) into an impersonation session of its user",
  access: ["client", "server", "admin"],
  body: impersonationRedeemBodySchema,
  response: impersonationSessionSchema,
  errors: [...CODE_ERRORS, "USER_NOT_FOUND"],
  // Codes are 224-bit random, so guessing is hopeless; the limit still bounds a caller's tries.
  rateLimit: { ip: "CODE_VERIFY_PER_IP" },
});

export const impersonationRoutes = routeGroup();
addRoute(impersonationRoutes, redeem, async (c, { auth, body }) => {
  const session = unwrap(await redeemImpersonationCode(c.get("deps"), auth.project, body.code.toLowerCase(), ipInfoOf(c)));
  return c.json({
    access_token: session.accessToken,
    refresh_token: session.refreshToken,
    user_id: session.userId,
    session_id: session.sessionId,
  });
});
