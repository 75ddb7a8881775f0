/** Whether a request to a handler page comes with a session of the internal project. */
import { ACCESS_COOKIE_NAME, refreshCookieName } from "@doorman/sdk/session/token-store";
import { INTERNAL_PROJECT_ID } from "@doorman/shared/constants";

/** True when the Cookie header has a non-empty session cookie of the internal project. */
export function hasSessionCookie(cookieHeader: string | null): boolean {
  const names = new Set([ACCESS_COOKIE_NAME, refreshCookieName(INTERNAL_PROJECT_ID)]);
  for (const part of (cookieHeader ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at < 0) continue;
    const value = part.slice(at + 1).trim();
    // The names are plain ASCII (the SDK writes them URI-encoded, which leaves them as they are).
    if (names.has(part.slice(0, at).trim()) && value && value !== "undefined") return true;
  }
  return false;
}
