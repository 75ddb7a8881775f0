/** /auth/anonymous/sign-up: an anonymous (restricted) user with a session. */

import { tokensSchema } from "@doorman/shared/wire";
import { z } from "zod";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { ipInfoOf } from "../../lib/ip-info";
import { signUpAnonymously } from "../../services/auth/password";

const signUp = defineRoute({
  method: "post",
  path: "/sign-up",
  summary: "Sign up as an anonymous user",
  access: ["client", "server", "admin"],
  body: z.strictObject({}),
  response: tokensSchema,
  rateLimit: { ip: "ANONYMOUS_SIGN_UP_PER_IP" },
  errors: ["ANONYMOUS_ACCOUNTS_NOT_ENABLED"],
});

export const anonymousRoutes = routeGroup();
addRoute(anonymousRoutes, signUp, async (c, { auth }) => {
  const result = unwrap(await signUpAnonymously(c.get("deps"), auth.project, ipInfoOf(c)));
  return c.json({ access_token: result.accessToken, refresh_token: result.refreshToken, user_id: result.userId });
});
