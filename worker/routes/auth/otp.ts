/** /auth/otp: send a sign-in code (magic link + OTP) and sign in with it. */

import { codeValidSchema, signInCodeSentSchema, signInTokensSchema } from "@doorman/shared/wire-auth";
import { z } from "zod";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { ipInfoOf } from "../../lib/ip-info";
import { checkSignInCode, sendSignInCode, signInWithCode } from "../../services/auth/otp-sign-in";
import { BOT_CHALLENGE_ERRORS, botChallenge, CODE_ERRORS, code45, signInJson } from "./common";

const access = ["client", "server", "admin"] as const;
const codeBody = z.strictObject({ code: code45 });

const sendCode = defineRoute({
  method: "post",
  path: "/send-sign-in-code",
  summary: "Email a sign-in code and magic link",
  access,
  body: z.strictObject({ email: z.email().max(320), callback_url: z.url().max(4096), ...botChallenge }),
  response: signInCodeSentSchema,
  errors: ["REDIRECT_URL_NOT_WHITELISTED", "SIGN_UP_NOT_ENABLED", "USER_EMAIL_ALREADY_EXISTS", ...BOT_CHALLENGE_ERRORS, "SSO_REQUIRED"],
  rateLimit: { ip: "OTP_SEND_PER_IP", email: "OTP_SEND_PER_EMAIL" },
});

const signIn = defineRoute({
  method: "post",
  path: "/sign-in",
  summary: "Sign in (or up) with an emailed code",
  access,
  body: codeBody,
  response: signInTokensSchema,
  errors: [
    ...CODE_ERRORS,
    "MULTI_FACTOR_AUTHENTICATION_REQUIRED",
    "SIGN_UP_NOT_ENABLED",
    "SIGN_UP_REJECTED",
    "USER_EMAIL_ALREADY_EXISTS",
    "SSO_REQUIRED",
  ],
  rateLimit: { ip: "CODE_VERIFY_PER_IP" },
});

const checkCode = defineRoute({
  method: "post",
  path: "/sign-in/check-code",
  summary: "Check an emailed sign-in code without using it",
  access,
  body: codeBody,
  response: codeValidSchema,
  errors: CODE_ERRORS,
  rateLimit: { ip: "CODE_VERIFY_PER_IP" },
});

export const otpRoutes = routeGroup();
addRoute(otpRoutes, sendCode, async (c, { auth, body }) => {
  const result = unwrap(
    await sendSignInCode(c.get("deps"), auth.project, { email: body.email, callbackUrl: body.callback_url, botChallenge: body }),
  );
  return c.json({ nonce: result.nonce });
});
addRoute(otpRoutes, signIn, async (c, { auth, body }) => {
  const result = unwrap(
    await signInWithCode(c.get("deps"), auth.project, { code: body.code, currentUser: auth.user, ipInfo: ipInfoOf(c) }),
  );
  return c.json(signInJson(result));
});
addRoute(otpRoutes, checkCode, async (c, { auth, body }) => {
  unwrap(await checkSignInCode(c.get("deps"), auth.project, body.code));
  return c.json({ is_code_valid: true });
});
