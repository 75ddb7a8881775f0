/**
 * New-device verification in the client (Doorman, issue 29): a password sign-in from a device the user
 * has not used before answers DEVICE_VERIFICATION_REQUIRED (`details.attempt_code`, `details.sent_to`)
 * and the user is emailed a 6-character code; `verifyDeviceCode` finishes the sign-in with it (the
 * device becomes known, its token kept), `resendDeviceCode` mails a new one.
 */
import { ok, type Result } from "../interface/result";
import { deviceHeaders, keepDeviceToken } from "../session/device-token";
import type { KnownError } from "../shared/known-errors";
import type { AppCore } from "./app-core";
import { asResult } from "./email-auth";
import type { SignInTokensJson } from "./wire-types";

/** The waiting sign-in of a DEVICE_VERIFICATION_REQUIRED error: its attempt code and the masked address, or null. */
export function deviceAttemptOf(error: KnownError): { attemptCode: string; sentTo: string } | null {
  if (error.code !== "DEVICE_VERIFICATION_REQUIRED") return null;
  const attemptCode = error.details?.attempt_code;
  const sentTo = error.details?.sent_to;
  return typeof attemptCode === "string" ? { attemptCode, sentTo: typeof sentTo === "string" ? sentTo : "" } : null;
}

/** Sends the code; on success stores the session and keeps the device token. */
export async function verifyDeviceCode(app: AppCore, attemptCode: string, code: string): Promise<Result<{ isNewUser: boolean }>> {
  const result = await asResult(() =>
    app._userRequest<SignInTokensJson>("/auth/device-verification/verify", {
      body: { attempt_code: attemptCode, code: code.trim() },
      headers: deviceHeaders(app._device),
    }),
  );
  if (result.status === "error") return result;
  keepDeviceToken(app._device, result.data);
  app._session.setTokens({ accessToken: result.data.access_token, refreshToken: result.data.refresh_token });
  await app._refreshUser();
  return ok({ isNewUser: result.data.is_new_user });
}

/** Mails a new code; the answer's attempt code replaces the old one (which stops working). */
export function resendDeviceCode(app: AppCore, attemptCode: string): Promise<Result<{ attemptCode: string; sentTo: string }>> {
  return asResult(async () => {
    const res = await app._http.request<{ attempt_code: string; sent_to: string }>("/auth/device-verification/resend", {
      body: { attempt_code: attemptCode },
    });
    return { attemptCode: res.attempt_code, sentTo: res.sent_to };
  });
}
