/** The wire errors of the SSO sign-in's problems (issue 31, FLOW). */
import { KnownError } from "@doorman/shared/known-errors";
import type { ProblemMap } from "../../services/result";
import type { SsoSignInProblemFields } from "../../services/sso/sign-in-problems";

export const ssoSignInProblems = {
  sso_required: (p) => new KnownError("SSO_REQUIRED", { connection_id: p.connectionId }),
  sso_connection_not_found: (p) => new KnownError("SSO_CONNECTION_NOT_FOUND", { connection_id: p.connectionId }),
  sso_not_configured_for_email: () => new KnownError("SSO_NOT_CONFIGURED_FOR_EMAIL"),
  sso_request_invalid: () => new KnownError("SSO_REQUEST_INVALID"),
  sso_user_deactivated: () => new KnownError("SSO_USER_DEACTIVATED"),
  // The detail stays in the log and the event: telling the caller which check failed helps an attacker.
  sso_idp_error: () => new KnownError("SSO_IDP_ERROR"),
  sso_idp_unavailable: () => new KnownError("SSO_IDP_UNAVAILABLE"),
  sso_idp_initiated_refused: () => new KnownError("SSO_IDP_INITIATED_NOT_ALLOWED"),
  sso_protocol_unsupported: (p) => new KnownError("SSO_PROTOCOL_NOT_SUPPORTED", { protocol: p.protocol }),
  sso_identity_conflict: () => new KnownError("SSO_IDENTITY_CONFLICT"),
} satisfies ProblemMap<keyof SsoSignInProblemFields>;
