/** /auth/mfa/sign-in: the second step for TOTP users (attempt code from the first step + a TOTP). */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../lib/hono-env";
import { ipInfoOf } from "../../lib/ip-info";
import { unwrap } from "../../lib/problems";
import { parseBody } from "../../lib/validate";
import { enforceRateLimits } from "../../middleware/rate-limit";
import { requireAccess } from "../../middleware/require";
import { signInWithTotp } from "../../services/mfa";

export const mfaRoutes = new Hono<AppEnv>().post("/sign-in", async (c) => {
  const auth = requireAccess(c, "client", "server", "admin");
  const body = await parseBody(c, z.strictObject({ type: z.literal("totp"), totp: z.string().max(16), code: z.string().length(45) }));
  await enforceRateLimits(c, { ip: "CODE_VERIFY_PER_IP" });
  const result = unwrap(
    await signInWithTotp(c.get("deps"), auth.project, { attemptCode: body.code, totp: body.totp, ipInfo: ipInfoOf(c) }),
  );
  return c.json({
    access_token: result.accessToken,
    refresh_token: result.refreshToken,
    is_new_user: result.isNewUser,
    user_id: result.userId,
  });
});
