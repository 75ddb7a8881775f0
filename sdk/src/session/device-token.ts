/**
 * Where a client keeps its device token (new-device verification, issue 29): a browser with the cookie
 * token store keeps it in the long-lived cookie `stack-device-{projectId}` (it outlives sign-outs, so
 * the next sign-in from this browser is a known device); every other client keeps it in memory.
 */
import { DEVICE_TOKEN_HEADER, DEVICE_TOKEN_MAX_AGE_S, deviceTokenCookieName } from "../shared/constants";
import { type CookieJar, documentCookieJar, type TokenStoreInit } from "./token-store";

export interface DeviceTokenKeeper {
  get(): string | null;
  set(token: string): void;
}

/** The keeper for an app's token store: the cookie jar when tokens live in cookies, else memory. */
export function createDeviceTokenKeeper(init: TokenStoreInit, projectId: string, jar?: CookieJar): DeviceTokenKeeper {
  if (init === "cookie") {
    const cookies = jar ?? documentCookieJar;
    const name = deviceTokenCookieName(projectId);
    return { get: () => cookies.get(name), set: (token) => cookies.set(name, token, DEVICE_TOKEN_MAX_AGE_S) };
  }
  let kept: string | null = null;
  return {
    get: () => kept,
    set: (token) => {
      kept = token;
    },
  };
}

/** The header a sign-in request carries (none before the first sign-in). */
export function deviceHeaders(keeper: DeviceTokenKeeper): Record<string, string> {
  const token = keeper.get();
  return token ? { [DEVICE_TOKEN_HEADER]: token } : {};
}

/** Keeps the token a sign-in answered (`device_token`), if any. */
export function keepDeviceToken(keeper: DeviceTokenKeeper, answer: { device_token?: string }): void {
  if (typeof answer.device_token === "string" && answer.device_token) keeper.set(answer.device_token);
}
