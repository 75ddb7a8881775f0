/**
 * The SSO management problem reasons (issue 31, ADMIN: connections, domains, SCIM token, setup
 * links): a slice of ProblemFields (services/result.ts), mapped by `ssoAdminProblems` in
 * worker/http/problems/sso-admin.ts.
 */

export type SsoAdminProblemFields = {
  /** No connection with this id in the project, or one of a team the caller may not manage. */
  sso_admin_connection_not_found: { connectionId: string };
  /** A connection's settings broke a rule; `field` is the wire name (`saml.idp_sso_url`, …). */
  sso_connection_invalid_config: { field: string; message: string };
  /** Others kept changing the connection between each read and write (the compare-and-set on updated_at lost). */
  sso_connection_modified: { connectionId: string };
  sso_domain_not_found: { domainId: string };
  /** Not a domain name a team can claim (an IP, a public suffix, not ASCII after IDNA, …). */
  sso_domain_invalid: { domain: string; message: string };
  /** This team already claims the domain. */
  sso_domain_already_claimed: { domain: string };
  /** Another team of the project has verified the domain. */
  sso_domain_already_verified: { domain: string };
  /** The TXT record was not found, or the resolver could not answer. */
  sso_domain_verification_failed: {
    domain: string;
    cause: "record_not_found" | "resolver_unavailable";
    recordName: string;
    recordValue: string;
  };
  /** Too many DNS checks of one team's domains in the window (SSO_DOMAIN_CHECK_PER_TEAM). */
  sso_domain_check_rate_limited: { retryAfterSeconds: number };
  /** The setup link's token is unknown, expired, or used on another team (or to make another link). */
  sso_setup_link_invalid: Record<never, never>;
};
