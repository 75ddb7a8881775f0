/**
 * How a session's user authenticated, as RFC 8176 `amr` values (stored in sessions.amr; the OpenID
 * provider's ID tokens and access tokens carry them, and `acr` says multi-factor when "mfa" is there).
 * Only what Doorman actually checked is claimed:
 *
 * | sign-in (SessionOrigin)                    | amr                                   |
 * |--------------------------------------------|---------------------------------------|
 * | password                                   | pwd                                   |
 * | otp (emailed code or magic link)           | otp                                   |
 * | passkey                                    | hwk, user (the authenticator's presence test) |
 * | passkey with user verification (PIN/biometric) | hwk, user, mfa (a key and a PIN or biometric: two factors, as require_mfa counts it) |
 * | oauth (another provider signed the user in) | (none: RFC 8176 has no value for a federated sign-in, and what the provider checked is unknown) |
 * | sso, OIDC connection (issue 31)            | the IdP ID token's `amr`, RFC 8176 values only |
 * | sso, SAML connection (issue 31)            | pwd for AuthnContextClassRef Password / PasswordProtectedTransport, else none |
 * | anonymous                                  | (none: nothing was authenticated)     |
 * | + a TOTP (or recovery) second factor (mfa) | + otp, mfa                            |
 * | server-created, impersonation, CLI hand-out | null: no sign-in by the user made the session |
 *
 * New-device verification (an emailed code after the first factor) is a risk check, not a factor the
 * project requires, so it adds nothing.
 */

/** The parts of a session's origin (sessions.ts SessionOrigin) that say how the user authenticated. */
export type AmrOrigin =
  | { signIn: { method: string; mfa?: boolean; user_verified?: boolean; sso?: { amr: string[] } } }
  | { impersonation: true };

const FIRST_FACTOR: Record<string, string[]> = {
  password: ["pwd"],
  otp: ["otp"],
  passkey: ["hwk", "user"],
  oauth: [],
  anonymous: [],
};

/** The amr of a session made by `origin`; null when no sign-in by the user made it. */
export function amrOfOrigin(origin: AmrOrigin): string[] | null {
  if (!("signIn" in origin)) return null;
  // An SSO sign-in is the IdP's authentication: its amr as the sign-in step filtered it (services/sso/session-origin.ts).
  const first = origin.signIn.method === "sso" ? (origin.signIn.sso?.amr ?? []) : FIRST_FACTOR[origin.signIn.method];
  if (!first) return null;
  const amr = new Set(first);
  if (origin.signIn.method === "passkey" && origin.signIn.user_verified) amr.add("mfa");
  if (origin.signIn.mfa) {
    amr.add("otp");
    amr.add("mfa");
  }
  return [...amr];
}
