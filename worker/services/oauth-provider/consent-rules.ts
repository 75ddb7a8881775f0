/**
 * The consent page's rules as plain functions (issue 30): which scopes a request names and how the
 * page words them, whether a remembered consent covers a request, whether the session is fresh
 * enough for the app's prompt=login / max_age, and the redirect back to the app (RFC 6749 §4.1.2
 * with RFC 9207's `iss`).
 */
import type { OAuthScopeJson } from "@doorman/shared/wire-oauth-provider";
import type { OAuthAuthorizationRequestRow } from "../../db/queries/oauth-consent-decisions";
import type { OAuthConsentRow } from "../../db/queries/oauth-consents";
import type { SessionRow } from "../../db/queries/sessions";
import { type OAuthProviderConfig, STANDARD_SCOPES } from "./config";

/** The `acr` of a sign-in that used a second factor (OpenID PAPE's multi-factor policy). */
export const MFA_ACR = "http://schemas.openid.net/pape/policies/2007/06/multi-factor";

/** How long an issued authorization code can be redeemed (the design's 60 s). */
export const CODE_TTL_MS = 60_000;

/** The distinct names of a space-separated scope string (or prompt list), in their order. */
export function spaceList(value: string | null): string[] {
  return [...new Set((value ?? "").split(" ").filter(Boolean))];
}

/** The scopes as the page lists them: standard ones first (in STANDARD_SCOPES order, words from the SDK), then custom ones with the owner's sentence. */
export function describeScopes(scope: string, config: Pick<OAuthProviderConfig, "scopes">): OAuthScopeJson[] {
  const names = spaceList(scope);
  const standard: readonly string[] = STANDARD_SCOPES;
  const standardOnes = STANDARD_SCOPES.filter((s) => names.includes(s)).map((name) => ({ name, description: null }));
  // A custom scope the owner removed since /authorize still shows (by its name): the user sees all they grant.
  const custom = names
    .filter((n) => !standard.includes(n))
    .map((name) => ({ name, description: config.scopes[name]?.description ?? name }));
  return [...standardOnes, ...custom];
}

/** The union of two scope strings, sorted and space-separated (how consents store it). */
export function unionScopes(a: string | null, b: string): string {
  return [...new Set([...spaceList(a), ...spaceList(b)])].sort().join(" ");
}

/** Does the remembered consent cover every scope of the request, and (when the app asks for a team) a team the user is still in? */
export function consentCovers(
  consent: OAuthConsentRow | null,
  request: OAuthAuthorizationRequestRow,
  userTeamIds: readonly string[],
): boolean {
  if (!consent) return false;
  const granted = new Set(spaceList(consent.scope));
  if (!spaceList(request.scope).every((s) => granted.has(s))) return false;
  return !request.teamRequested || (consent.teamId !== null && userTeamIds.includes(consent.teamId));
}

/**
 * Must the user sign in again before answering? A session begun after the request is always fresh
 * (else max_age=0 could never be met); an older one is not when the app sent prompt=login, nor when
 * it is older than max_age. No session row (ended meanwhile): sign in again.
 */
export function needsReauthentication(request: OAuthAuthorizationRequestRow, session: SessionRow | null, now: number): boolean {
  // Why: an admin's impersonation session is not the user's own sign-in; it never lets an app into the account.
  if (!session || session.isImpersonation) return true;
  if (session.createdAt >= request.createdAt) return false;
  if (spaceList(request.prompt).includes("login")) return true;
  return request.maxAge !== null && now - session.createdAt > request.maxAge * 1000;
}

/** The app's redirect URI with the answer's parameters added (its own query is kept, RFC 6749 §3.1.2). */
export function redirectWith(redirectUri: string, params: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  return url.toString();
}
