/**
 * Enterprise SSO sign-in in the client (issue 31): the same PKCE flow as OAuth (apps/oauth.ts), started
 * at /auth/sso/authorize with the user's work email (routed by its verified domain) or a connection id;
 * the team's identity provider sends the browser back to the oauth-callback page, whose
 * `callOAuthCallback()` completes it unchanged. `lookupSso` tells a sign-in page whether an email
 * signs in with SSO (and whether its organization requires it).
 */
import { KnownError } from "../shared/known-errors";
import type { AppCore } from "./app-core";
import { type OAuthStartOptions, outerQuery } from "./oauth";

/** Who to sign in: an email at a verified domain, or the connection itself (the IdP-initiated bounce). */
export type SsoTarget = { email: string } | { connectionId: string };

export type SsoStartOptions = Pick<OAuthStartOptions, "afterCallbackRedirectUrl" | "redirectUrl" | "errorRedirectUrl">;

/** The answer of GET /auth/sso/lookup. */
export type SsoLookup = { connectionId: string | null; displayName: string | null; enforced: boolean };

type SsoLookupJson = { connection_id: string | null; display_name: string | null; enforced: boolean };

/** Prepares the flow and returns the identity provider's URL to navigate to. */
export async function startSso(app: AppCore, target: SsoTarget, options: SsoStartOptions = {}): Promise<string> {
  const query = await outerQuery(app, options);
  if ("email" in target) query.set("email", target.email.trim());
  else query.set("connection_id", target.connectionId);
  // The paths of SSO_PATHS (shared/wire-sso.ts), written out: importing that object would put all its paths in every bundle.
  const res = await app._http.request<{ location: string }>(`/auth/sso/authorize?${query}`, { bare: true });
  return res.location;
}

export async function lookupSso(app: AppCore, email: string): Promise<SsoLookup> {
  const res = await app._http.request<SsoLookupJson>(`/auth/sso/lookup?${new URLSearchParams({ email: email.trim() })}`);
  return { connectionId: res.connection_id, displayName: res.display_name, enforced: res.enforced };
}

/**
 * SSO_REQUIRED (a password, code, passkey or OAuth sign-in refused because the email's organization
 * requires SSO): the connection to continue with (null: none enabled yet), or undefined for any other error.
 *
 * @example
 * const result = await app.signInWithCredential({ email, password });
 * if (result.status === "error" && ssoRequiredConnectionId(result.error) !== undefined) await app.signInWithSso({ email });
 */
export function ssoRequiredConnectionId(error: unknown): string | null | undefined {
  if (!(error instanceof KnownError) || error.code !== "SSO_REQUIRED") return undefined;
  const id = error.details?.connection_id;
  return typeof id === "string" ? id : null;
}
