/**
 * Why a SAMLResponse was refused (issue 31): a short tag for the `sso.sign_in_refused` event (what a team's
 * admins see) and a detail for the log. Neither reaches the browser, which only sees SAML_RESPONSE_INVALID.
 */

export const SAML_REFUSAL_REASONS = [
  // Parsing and structure (response.ts).
  "response_too_large",
  "response_not_base64",
  "response_not_xml",
  "not_a_response",
  "comments_not_allowed",
  "assertion_count",
  "duplicate_ids",
  "signature_misplaced",
  // Signatures and encryption (xmldsig.ts, decrypt.ts).
  "signature_malformed",
  "signature_algorithm_refused",
  "signature_invalid",
  "unsigned",
  "response_unsigned",
  "assertion_unencrypted",
  "decryption_failed",
  // The profile's checks (checks.ts, profile.ts).
  "idp_status",
  "issuer_mismatch",
  "destination_mismatch",
  "assertion_malformed",
  "subject_confirmation_invalid",
  "in_response_to_inconsistent",
  "not_yet_valid",
  "expired",
  "lifetime_too_long",
  "audience_mismatch",
  "session_ended",
  "no_subject",
  // The ACS (acs.ts).
  "replayed",
  "connection_misconfigured",
] as const;
export type SamlRefusalReason = (typeof SAML_REFUSAL_REASONS)[number];

export type SamlRefusal = { ok: false; reason: SamlRefusalReason; detail: string };

export function refuse(reason: SamlRefusalReason, detail: string = reason): SamlRefusal {
  return { ok: false, reason, detail };
}
