/**
 * The session cookies of a project's hosted pages. Several projects' pages and the console share
 * Doorman's origin, and the SDK's access cookie name ("stack-access") is one for all projects, so
 * hosted pages rename it per project and scope every cookie to their own path: no project reads or
 * overwrites another's session, nor the console's. On a custom domain the path is "/".
 */
import { ACCESS_COOKIE_NAME, type CookieJar, refreshCookieName } from "@doorman/sdk/session/token-store";

/** The access-token cookie of a project's hosted pages. */
export function hostedAccessCookieName(projectId: string): string {
  return `${ACCESS_COOKIE_NAME}-${projectId}`;
}

/** The cookie names that mean "someone may be signed in" for a project's hosted pages. */
export function hostedSessionCookieNames(projectId: string): string[] {
  return [hostedAccessCookieName(projectId), refreshCookieName(projectId)];
}

/** A cookie jar over document.cookie with the access cookie renamed for the project and every cookie under `path`. */
export function hostedCookieJar(projectId: string, path: string): CookieJar {
  const rename = (name: string) => (name === ACCESS_COOKIE_NAME ? hostedAccessCookieName(projectId) : name);
  const attributes = () => `; Path=${path}; SameSite=Lax${location.protocol === "https:" ? "; Secure" : ""}`;
  return {
    get(name) {
      const prefix = `${encodeURIComponent(rename(name))}=`;
      const match = document.cookie.split("; ").find((c) => c.startsWith(prefix));
      return match ? decodeURIComponent(match.slice(prefix.length)) : null;
    },
    set(name, value, maxAgeSeconds) {
      // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser; values are encoded here.
      document.cookie = `${encodeURIComponent(rename(name))}=${encodeURIComponent(value)}; Max-Age=${maxAgeSeconds}${attributes()}`;
    },
    remove(name) {
      // biome-ignore lint/suspicious/noDocumentCookie: see above.
      document.cookie = `${encodeURIComponent(rename(name))}=; Max-Age=0${attributes()}`;
    },
  };
}
