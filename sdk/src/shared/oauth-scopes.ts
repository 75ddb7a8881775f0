/**
 * The OpenID provider's scope names (issue 30), shared by the worker (what a project offers, what a
 * custom scope may be called), the SDK's consent page (which scopes it words itself) and the console.
 * No imports, so a browser bundle pulls in no schema library.
 */

/** The scopes every project offers, in the order the consent page lists them. */
export const STANDARD_SCOPES = ["openid", "profile", "email", "offline_access", "team"] as const;
export type StandardScope = (typeof STANDARD_SCOPES)[number];

/** A custom scope's name: RFC 6749 scope-token characters, minus quotes and backslash, and no spaces. */
export const CUSTOM_SCOPE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:/-]{0,63}$/;

/** Whether a scope is one of the standard ones (the consent page words these itself). */
export function isStandardScope(scope: string): scope is StandardScope {
  return (STANDARD_SCOPES as readonly string[]).includes(scope);
}
