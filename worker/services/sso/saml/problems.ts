/**
 * The SAML service provider's problem reasons (issue 31): a slice of ProblemFields (services/result.ts),
 * mapped by `samlProblems` in worker/http/problems/saml.ts. `why` is for the event log and the logs:
 * the wire answer of a refused response never carries it.
 */

export type SamlProblemFields = {
  /** A SAMLResponse failed a check (parse, signature, audience, time, replay, …). */
  saml_response_invalid: { why: string };
  /** Pasted IdP metadata could not be read into a connection's fields. */
  saml_metadata_invalid: { why: string };
};
