/** /auth/anonymous/sign-up: an anonymous (restricted) user with a session. */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../lib/hono-env";
import { ipInfoOf } from "../../lib/ip-info";
import { parseBody } from "../../lib/validate";
import { requireAccess } from "../../middleware/require";
import { signUpAnonymously } from "../../services/password-auth";

export const anonymousRoutes = new Hono<AppEnv>().post("/sign-up", async (c) => {
  const auth = requireAccess(c, "client", "server", "admin");
  await parseBody(c, z.strictObject({}));
  const result = await signUpAnonymously(c.get("deps"), auth.project, ipInfoOf(c));
  return c.json({ access_token: result.accessToken, refresh_token: result.refreshToken, user_id: result.userId });
});
