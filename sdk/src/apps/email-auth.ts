/** Email-based auth for the client app: magic link / OTP, password reset, email verification. */
import { err, ok, type Result } from "../interface/result";
import { deviceHeaders, keepDeviceToken } from "../session/device-token";
import { KnownError } from "../shared/known-errors";
import type { AppCore } from "./app-core";
import { withBotChallenge } from "./bot-challenge";
import type { SignInCodeSentJson, SignInTokensJson } from "./wire-types";

/** Runs a request whose known errors are expected outcomes, returning them as values. */
export async function asResult<T>(work: () => Promise<T>): Promise<Result<T>> {
  try {
    return ok(await work());
  } catch (error) {
    if (error instanceof KnownError) return err(error);
    throw error;
  }
}

/** An absolute URL of a handler page (emails need absolute links). */
export function absoluteUrl(path: string): string {
  if (/^https?:\/\//.test(path)) return path;
  if (typeof window === "undefined") throw new Error(`An absolute callbackUrl is required outside a browser (got ${path})`);
  return new URL(path, window.location.origin).toString();
}

export function sendMagicLinkEmail(app: AppCore, email: string, callbackUrl: string): Promise<Result<{ nonce: string }>> {
  return asResult(async () => {
    const body = { email, callback_url: absoluteUrl(callbackUrl) };
    const res = await withBotChallenge(app, "send_magic_link_email", (fields) =>
      app._http.request<SignInCodeSentJson>("/auth/otp/send-sign-in-code", { body: { ...body, ...fields } }),
    );
    return { nonce: res.nonce };
  });
}

/** Uses a sign-in code (the link's code, or the typed OTP + nonce); stores the session. */
export async function signInWithCode(app: AppCore, code: string): Promise<Result<{ isNewUser: boolean }>> {
  const result = await asResult(() =>
    app._userRequest<SignInTokensJson>("/auth/otp/sign-in", { body: { code: code.toLowerCase() }, headers: deviceHeaders(app._device) }),
  );
  if (result.status === "error") return result;
  keepDeviceToken(app._device, result.data);
  app._session.setTokens({ accessToken: result.data.access_token, refreshToken: result.data.refresh_token });
  await app._refreshUser();
  return ok({ isNewUser: result.data.is_new_user });
}

/** Checks a sign-in link's code without using it (a mail scanner opening the link must not spend it). */
export function checkSignInCode(app: AppCore, code: string): Promise<Result<undefined>> {
  return asResult(async () => {
    await app._http.request("/auth/otp/sign-in/check-code", { body: { code: code.toLowerCase() } });
    return undefined;
  });
}

export function sendForgotPasswordEmail(app: AppCore, email: string, callbackUrl: string): Promise<Result<undefined>> {
  return asResult(async () => {
    await app._http.request("/auth/password/send-reset-code", { body: { email, callback_url: absoluteUrl(callbackUrl) } });
    return undefined;
  });
}

export function verifyPasswordResetCode(app: AppCore, code: string): Promise<Result<undefined>> {
  return asResult(async () => {
    await app._http.request("/auth/password/reset/check-code", { body: { code } });
    return undefined;
  });
}

export function resetPassword(app: AppCore, code: string, password: string): Promise<Result<undefined>> {
  return asResult(async () => {
    await app._http.request("/auth/password/reset", { body: { code, password } });
    return undefined;
  });
}

/** Checks an email-verification code without using it. */
export function checkEmailVerificationCode(app: AppCore, code: string): Promise<Result<undefined>> {
  return asResult(async () => {
    await app._http.request("/contact-channels/verify/check-code", { body: { code } });
    return undefined;
  });
}

export function verifyEmail(app: AppCore, code: string): Promise<Result<undefined>> {
  return asResult(async () => {
    await app._http.request("/contact-channels/verify", { body: { code } });
    await app._refreshUser().catch(() => null);
    return undefined;
  });
}
