/** /auth/otp: send a sign-in code (magic link + OTP) and sign in with it. */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../lib/hono-env";
import { ipInfoOf } from "../../lib/ip-info";
import { unwrap } from "../../lib/problems";
import { parseBody } from "../../lib/validate";
import { enforceRateLimits } from "../../middleware/rate-limit";
import { requireAccess } from "../../middleware/require";
import { checkSignInCode, sendSignInCode, signInWithCode } from "../../services/otp-sign-in";

const codeBody = z.strictObject({ code: z.string().length(45) });
const botChallenge = { bot_challenge_token: z.string().max(4096).optional(), bot_challenge_phase: z.string().max(64).optional() };

export const otpRoutes = new Hono<AppEnv>()
  .post("/send-sign-in-code", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const body = await parseBody(c, z.strictObject({ email: z.email().max(320), callback_url: z.url().max(4096), ...botChallenge }));
    await enforceRateLimits(c, { ip: "OTP_SEND_PER_IP", email: "OTP_SEND_PER_EMAIL" }, body.email);
    const result = unwrap(await sendSignInCode(c.get("deps"), auth.project, { email: body.email, callbackUrl: body.callback_url }));
    return c.json({ nonce: result.nonce });
  })
  .post("/sign-in", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const body = await parseBody(c, codeBody);
    await enforceRateLimits(c, { ip: "CODE_VERIFY_PER_IP" });
    const result = unwrap(
      await signInWithCode(c.get("deps"), auth.project, { code: body.code, currentUser: auth.user, ipInfo: ipInfoOf(c) }),
    );
    return c.json({
      access_token: result.accessToken,
      refresh_token: result.refreshToken,
      is_new_user: result.isNewUser,
      user_id: result.userId,
    });
  })
  .post("/sign-in/check-code", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const body = await parseBody(c, codeBody);
    await enforceRateLimits(c, { ip: "CODE_VERIFY_PER_IP" });
    unwrap(await checkSignInCode(c.get("deps"), auth.project, body.code));
    return c.json({ is_code_valid: true });
  });
