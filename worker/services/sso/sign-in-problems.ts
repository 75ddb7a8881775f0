/**
 * The SSO sign-in's problem reasons (issue 31, FLOW: authorize, the OIDC connection, the shared
 * sign-in step, lookup and enforcement): a slice of ProblemFields (services/result.ts), mapped by
 * `ssoSignInProblems` in worker/http/problems/sso-sign-in.ts.
 */

type NoFields = Record<never, never>;

export type SsoSignInProblemFields = {
  /** The email's verified domain enforces SSO: this sign-in method is refused (the SDK moves to its SSO step). */
  sso_required: { connectionId: string | null };
  /** No enabled connection with this id in the project. */
  sso_connection_not_found: { connectionId: string | null };
  /** The email's domain is not verified by a team with an enabled connection. */
  sso_not_configured_for_email: NoFields;
  /** The sso_request code (RelayState / OIDC state) is unknown, expired, used, or not this connection's. */
  sso_request_invalid: NoFields;
  /** The connection's identity of this user is deactivated (SCIM `active: false`). */
  sso_user_deactivated: NoFields;
  /** The IdP answered an error, or what it sent failed a check; `detail` goes to the log and the event, never to the wire. */
  sso_idp_error: { detail: string };
  /** The IdP could not be reached (discovery, JWKS or token endpoint: timeout, too large, network). */
  sso_idp_unavailable: { detail: string };
  /** An IdP-initiated (unsolicited) response to a connection that does not accept them. */
  sso_idp_initiated_refused: NoFields;
  /** The connection's protocol cannot start a sign-in on this server. */
  sso_protocol_unsupported: { protocol: string };
  /** The user is already linked to another identity (another subject) of this connection. */
  sso_identity_conflict: NoFields;
};
