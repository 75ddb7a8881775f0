/**
 * The shapes the SSO protocols (SAML, OIDC) hand to the shared sign-in step (issue 31). A protocol
 * verifies what its IdP sent and reduces it to an SsoProfile; services/sso/sign-in.ts turns a profile
 * into a Doorman user, a team membership and the outer authorization code.
 */

/** Who the IdP says signed in. `subject` is the SAML NameID or the OIDC `sub`: stable per connection. */
export type SsoProfile = {
  subject: string;
  /** The email the IdP asserts; trusted as verified only when its domain is verified by the connection's team. */
  email: string | null;
  displayName: string | null;
  /** Group names the IdP sent (SAML attribute / OIDC claim named by the attribute mapping); may be empty. */
  groups: string[];
};
