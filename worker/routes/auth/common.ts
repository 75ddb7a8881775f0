/** Pieces shared by the /auth/* declarations: one-time code errors, bot-challenge fields, sign-in answers. */

import type { SignInTokensJson } from "@doorman/shared/wire-auth";
import { z } from "zod";
import type { SignInTokens } from "../../services/auth/password";

/** What redeeming a one-time code (email link, OTP, attempt or ceremony code) can answer. */
export const CODE_ERRORS = [
  "VERIFICATION_CODE_NOT_FOUND",
  "VERIFICATION_CODE_EXPIRED",
  "VERIFICATION_CODE_ALREADY_USED",
  "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
] as const;

/** The bot-challenge (Turnstile) fields, as the reference declares them; checked by services/protection/bot-challenge.ts. */
export const botChallenge = {
  bot_challenge_token: z.string().max(4096).optional(),
  bot_challenge_phase: z.enum(["invisible", "visible"]).optional(),
  bot_challenge_unavailable: z.literal("true").optional(),
};

/** What a route that checks a bot challenge can answer. */
export const BOT_CHALLENGE_ERRORS = ["BOT_CHALLENGE_REQUIRED", "BOT_CHALLENGE_FAILED"] as const;

/** Codes mailed or handed out by Doorman are 45 characters. */
export const code45 = z.string().length(45);

export function signInJson(result: SignInTokens): SignInTokensJson {
  return {
    access_token: result.accessToken,
    refresh_token: result.refreshToken,
    is_new_user: result.isNewUser,
    user_id: result.userId,
    // Doorman (issue 29): the device token the SDK keeps and sends on its next sign-ins.
    ...(result.deviceToken ? { device_token: result.deviceToken } : {}),
  };
}
