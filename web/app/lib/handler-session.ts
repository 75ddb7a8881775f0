/** Whether a request to a handler page comes with a session cookie of the page's project. */
import { ACCESS_COOKIE_NAME, refreshCookieName } from "@doorman/sdk/session/token-store";
import { INTERNAL_PROJECT_ID } from "@doorman/shared/constants";
import { hostedSessionCookieNames } from "./hosted-cookies";

/**
 * True when the Cookie header has a non-empty session cookie of the project: the SDK's cookies for
 * the internal project (the console), the hosted pages' own names for any other project.
 */
export function hasSessionCookie(cookieHeader: string | null, projectId: string = INTERNAL_PROJECT_ID): boolean {
  const names = new Set(
    projectId === INTERNAL_PROJECT_ID ? [ACCESS_COOKIE_NAME, refreshCookieName(INTERNAL_PROJECT_ID)] : hostedSessionCookieNames(projectId),
  );
  for (const part of (cookieHeader ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at < 0) continue;
    const value = part.slice(at + 1).trim();
    // The names are plain ASCII (the SDK writes them URI-encoded, which leaves them as they are).
    if (names.has(part.slice(0, at).trim()) && value && value !== "undefined") return true;
  }
  return false;
}
