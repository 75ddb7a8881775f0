/** /auth/password: sign-up and sign-in with email and password, password change and reset. */

import { KnownError } from "@doorman/shared/known-errors";
import { successSchema, tokensSchema } from "@doorman/shared/wire";
import { codeValidSchema, resetCodeSentSchema } from "@doorman/shared/wire-auth";
import { z } from "zod";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { ipInfoOf } from "../../lib/ip-info";
import { type SignInTokens, setPassword, signInWithPassword, signUpWithPassword, updatePassword } from "../../services/auth/password";
import { checkResetCode, resetPassword, sendResetCode } from "../../services/auth/password-reset";
import { isTrustedRedirectUrl } from "../../services/hosted-pages/trust";
import { BOT_CHALLENGE_ERRORS, botChallenge, CODE_ERRORS, code45 } from "./common";

const access = ["client", "server", "admin"] as const;
const credentials = {
  email: z.email().max(320),
  // Bounds the input only; the service answers PASSWORD_TOO_SHORT/LONG for the 8-70 rule and
  // PASSWORD_REQUIREMENTS_NOT_MET for the other password rules (worker/services/auth/password-rules.ts),
  // PASSWORD_BREACHED when the range API lists it (services/protection/breached-passwords.ts).
  password: z.string().max(4096),
};
const LENGTH_ERRORS = ["PASSWORD_TOO_SHORT", "PASSWORD_TOO_LONG", "PASSWORD_REQUIREMENTS_NOT_MET", "PASSWORD_BREACHED"] as const;

const signUp = defineRoute({
  method: "post",
  path: "/sign-up",
  summary: "Sign up with email and password",
  access,
  body: z.strictObject({ ...credentials, verification_callback_url: z.url().max(4096).optional(), ...botChallenge }),
  response: tokensSchema,
  errors: [
    ...LENGTH_ERRORS,
    "REDIRECT_URL_NOT_WHITELISTED",
    "PASSWORD_AUTHENTICATION_NOT_ENABLED",
    "SIGN_UP_NOT_ENABLED",
    "SIGN_UP_REJECTED",
    "USER_EMAIL_ALREADY_EXISTS",
    "MULTI_FACTOR_AUTHENTICATION_REQUIRED",
    ...BOT_CHALLENGE_ERRORS,
    "SSO_REQUIRED",
  ],
  rateLimit: { ip: "SIGN_UP_PER_IP", email: "SIGN_UP_PER_EMAIL" },
});

const signIn = defineRoute({
  method: "post",
  path: "/sign-in",
  summary: "Sign in with email and password",
  access,
  body: z.strictObject({ ...credentials, ...botChallenge }),
  response: tokensSchema,
  errors: [
    "PASSWORD_AUTHENTICATION_NOT_ENABLED",
    "EMAIL_PASSWORD_MISMATCH",
    "MULTI_FACTOR_AUTHENTICATION_REQUIRED",
    ...BOT_CHALLENGE_ERRORS,
    "DEVICE_VERIFICATION_REQUIRED",
    "SSO_REQUIRED",
  ],
  // Lockout per (account, address), plus a per-account cap far above it (NIST 800-63B: 100 failures):
  // wrong tries from other addresses cannot lock the owner out. Only failed sign-ins count there.
  rateLimit: {
    ip: "SIGN_IN_PER_IP",
    emailIp: "SIGN_IN_PER_EMAIL_IP",
    email: "SIGN_IN_PER_EMAIL",
    failuresOnly: ["emailIp", "email"],
    lockoutNotice: true,
  },
});

const update = defineRoute({
  method: "post",
  path: "/update",
  summary: "Change the signed-in user's password (other sessions end)",
  access,
  user: true,
  missingUser: "SCHEMA_ERROR",
  body: z.strictObject({ old_password: credentials.password, new_password: credentials.password }),
  response: successSchema,
  errors: [...LENGTH_ERRORS, "USER_DOES_NOT_HAVE_PASSWORD", "PASSWORD_CONFIRMATION_MISMATCH", "USER_NOT_FOUND"],
});

const set = defineRoute({
  method: "post",
  path: "/set",
  summary: "Set a password for a signed-in user who has none",
  access,
  user: true,
  missingUser: "SCHEMA_ERROR",
  body: z.strictObject({ password: credentials.password }),
  response: successSchema,
  errors: [...LENGTH_ERRORS, "USER_NOT_FOUND"],
});

const sendReset = defineRoute({
  method: "post",
  path: "/send-reset-code",
  summary: "Email a password reset link (the same answer whether or not the account exists)",
  access,
  body: z.strictObject({ email: z.email().max(320), callback_url: z.url().max(4096) }),
  response: resetCodeSentSchema,
  errors: ["REDIRECT_URL_NOT_WHITELISTED"],
  rateLimit: { ip: "RESET_SEND_PER_IP", email: "RESET_SEND_PER_EMAIL" },
});

const reset = defineRoute({
  method: "post",
  path: "/reset",
  summary: "Reset a password with an emailed code",
  access,
  body: z.strictObject({ code: code45, password: credentials.password }),
  response: successSchema,
  errors: [...CODE_ERRORS, ...LENGTH_ERRORS, "USER_NOT_FOUND"],
  rateLimit: { ip: "CODE_VERIFY_PER_IP" },
});

const checkReset = defineRoute({
  method: "post",
  path: "/reset/check-code",
  summary: "Check a password reset code without using it",
  access,
  body: z.strictObject({ code: code45 }),
  response: codeValidSchema,
  errors: CODE_ERRORS,
  rateLimit: { ip: "CODE_VERIFY_PER_IP" },
});

/** The tokens, and (Doorman, issue 29) the device token the SDK keeps for its next sign-ins. */
function passwordAnswer(result: SignInTokens) {
  return {
    access_token: result.accessToken,
    refresh_token: result.refreshToken,
    user_id: result.userId,
    ...(result.deviceToken ? { device_token: result.deviceToken } : {}),
  };
}

export const passwordRoutes = routeGroup();
addRoute(passwordRoutes, signUp, async (c, { auth, body }) => {
  // The verification link will carry a code: it may only point at the project's own domains.
  if (body.verification_callback_url && !(await isTrustedRedirectUrl(c.get("deps"), auth.project, body.verification_callback_url))) {
    throw new KnownError("REDIRECT_URL_NOT_WHITELISTED");
  }
  const result = unwrap(
    await signUpWithPassword(c.get("deps"), auth.project, {
      email: body.email,
      password: body.password,
      currentUser: auth.user,
      ipInfo: ipInfoOf(c),
      verificationCallbackUrl: body.verification_callback_url,
      botChallenge: body,
    }),
  );
  return c.json(passwordAnswer(result));
});
addRoute(passwordRoutes, signIn, async (c, { auth, body }) => {
  const result = unwrap(
    await signInWithPassword(c.get("deps"), auth.project, {
      email: body.email,
      password: body.password,
      ipInfo: ipInfoOf(c),
      botChallenge: body,
      // Aborted when the client disconnects (enable_request_signal): its place in the hash queues goes to the next.
      signal: c.req.raw.signal,
    }),
  );
  return c.json(passwordAnswer(result));
});
addRoute(passwordRoutes, update, async (c, { auth, body }) => {
  unwrap(
    await updatePassword(c.get("deps"), auth.project, auth.user, {
      oldPassword: body.old_password,
      newPassword: body.new_password,
      keepSessionId: auth.sessionId,
    }),
  );
  return c.json({ success: true });
});
addRoute(passwordRoutes, set, async (c, { auth, body }) => {
  unwrap(await setPassword(c.get("deps"), auth.project, auth.user, { password: body.password, keepSessionId: auth.sessionId }));
  return c.json({ success: true });
});
addRoute(passwordRoutes, sendReset, async (c, { auth, body }) => {
  unwrap(await sendResetCode(c.get("deps"), auth.project, { email: body.email, callbackUrl: body.callback_url }));
  // The same answer whether or not the email has an account: nobody learns who signed up.
  return c.json({ success: "maybe, only if user with e-mail exists" });
});
addRoute(passwordRoutes, reset, async (c, { auth, body }) => {
  unwrap(await resetPassword(c.get("deps"), auth.project, { code: body.code, password: body.password }));
  return c.json({ success: true });
});
addRoute(passwordRoutes, checkReset, async (c, { auth, body }) => {
  unwrap(await checkResetCode(c.get("deps"), auth.project, body.code));
  return c.json({ is_code_valid: true });
});
