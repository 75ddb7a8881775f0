/** /auth/password: sign-up and sign-in with email and password. */
import { Hono } from "hono";
import { z } from "zod";
import { KnownError } from "../../../sdk/src/shared/known-errors";
import type { AppEnv } from "../../lib/hono-env";
import { ipInfoOf } from "../../lib/ip-info";
import { unwrap } from "../../lib/problems";
import { parseBody } from "../../lib/validate";
import { enforceRateLimits } from "../../middleware/rate-limit";
import { requireAccess, requireUser } from "../../middleware/require";
import { setPassword, signInWithPassword, signUpWithPassword, updatePassword } from "../../services/password-auth";
import { checkResetCode, resetPassword, sendResetCode } from "../../services/password-reset";
import { isTrustedUrl, readProjectConfig } from "../../services/project-config";

const credentials = {
  email: z.email().max(320),
  // Bounds the input only; the service answers PASSWORD_TOO_SHORT/LONG for the 8-70 rule.
  password: z.string().max(4096),
};
const botChallenge = { bot_challenge_token: z.string().max(4096).optional(), bot_challenge_phase: z.string().max(64).optional() };

export const passwordRoutes = new Hono<AppEnv>()
  .post("/sign-up", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const body = await parseBody(
      c,
      z.strictObject({ ...credentials, verification_callback_url: z.url().max(4096).optional(), ...botChallenge }),
    );
    await enforceRateLimits(c, { ip: "SIGN_UP_PER_IP", email: "SIGN_UP_PER_EMAIL" }, body.email);
    // The verification link will carry a code: it may only point at the project's own domains.
    if (body.verification_callback_url && !isTrustedUrl(readProjectConfig(auth.project.config), body.verification_callback_url)) {
      throw new KnownError("REDIRECT_URL_NOT_WHITELISTED");
    }
    const result = unwrap(
      await signUpWithPassword(c.get("deps"), auth.project, {
        email: body.email,
        password: body.password,
        currentUser: auth.user,
        ipInfo: ipInfoOf(c),
        verificationCallbackUrl: body.verification_callback_url,
      }),
    );
    return c.json({ access_token: result.accessToken, refresh_token: result.refreshToken, user_id: result.userId });
  })
  .post("/sign-in", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const body = await parseBody(c, z.strictObject({ ...credentials, ...botChallenge }));
    await enforceRateLimits(c, { ip: "SIGN_IN_PER_IP", email: "SIGN_IN_PER_EMAIL" }, body.email);
    const result = unwrap(
      await signInWithPassword(c.get("deps"), auth.project, { email: body.email, password: body.password, ipInfo: ipInfoOf(c) }),
    );
    return c.json({ access_token: result.accessToken, refresh_token: result.refreshToken, user_id: result.userId });
  })
  .post("/update", async (c) => {
    const auth = requireUser(requireAccess(c, "client", "server", "admin"));
    const body = await parseBody(c, z.strictObject({ old_password: credentials.password, new_password: credentials.password }));
    unwrap(
      await updatePassword(c.get("deps"), auth.project, auth.user, {
        oldPassword: body.old_password,
        newPassword: body.new_password,
        keepSessionId: auth.sessionId,
      }),
    );
    return c.json({ success: true });
  })
  .post("/set", async (c) => {
    const auth = requireUser(requireAccess(c, "client", "server", "admin"));
    const body = await parseBody(c, z.strictObject({ password: credentials.password }));
    unwrap(await setPassword(c.get("deps"), auth.project, auth.user, { password: body.password, keepSessionId: auth.sessionId }));
    return c.json({ success: true });
  })
  .post("/send-reset-code", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const body = await parseBody(c, z.strictObject({ email: z.email().max(320), callback_url: z.url().max(4096) }));
    await enforceRateLimits(c, { ip: "RESET_SEND_PER_IP", email: "RESET_SEND_PER_EMAIL" }, body.email);
    unwrap(await sendResetCode(c.get("deps"), auth.project, { email: body.email, callbackUrl: body.callback_url }));
    // The same answer whether or not the email has an account: nobody learns who signed up.
    return c.json({ success: "maybe, only if user with e-mail exists" });
  })
  .post("/reset", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const body = await parseBody(c, z.strictObject({ code: z.string().length(45), password: credentials.password }));
    await enforceRateLimits(c, { ip: "CODE_VERIFY_PER_IP" });
    unwrap(await resetPassword(c.get("deps"), auth.project, { code: body.code, password: body.password }));
    return c.json({ success: true });
  })
  .post("/reset/check-code", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const body = await parseBody(c, z.strictObject({ code: z.string().length(45) }));
    await enforceRateLimits(c, { ip: "CODE_VERIFY_PER_IP" });
    unwrap(await checkResetCode(c.get("deps"), auth.project, body.code));
    return c.json({ is_code_valid: true });
  });
