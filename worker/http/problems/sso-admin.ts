/** The wire errors of the SSO management problems (issue 31, ADMIN). */
import { KnownError } from "@doorman/shared/known-errors";
import type { ProblemMap } from "../../services/result";
import type { SsoAdminProblemFields } from "../../services/sso/admin-problems";
import { RateLimitedError } from "../limit";

export const ssoAdminProblems = {
  sso_admin_connection_not_found: (p) => new KnownError("SSO_CONNECTION_NOT_FOUND", { connection_id: p.connectionId }),
  sso_connection_invalid_config: (p) => new KnownError("SSO_CONNECTION_INVALID_CONFIG", { field: p.field, message: p.message }),
  sso_connection_modified: (p) => new KnownError("SSO_CONNECTION_MODIFIED", { connection_id: p.connectionId }),
  sso_domain_not_found: (p) => new KnownError("SSO_DOMAIN_NOT_FOUND", { domain_id: p.domainId }),
  sso_domain_invalid: (p) => new KnownError("SSO_DOMAIN_INVALID", { domain: p.domain, message: p.message }),
  sso_domain_already_claimed: (p) => new KnownError("SSO_DOMAIN_ALREADY_CLAIMED", { domain: p.domain }),
  sso_domain_already_verified: (p) => new KnownError("SSO_DOMAIN_ALREADY_VERIFIED", { domain: p.domain }),
  sso_domain_verification_failed: (p) =>
    new KnownError("SSO_DOMAIN_VERIFICATION_FAILED", {
      domain: p.domain,
      reason: p.cause,
      record_name: p.recordName,
      record_value: p.recordValue,
    }),
  sso_domain_check_rate_limited: (p) => new RateLimitedError(p.retryAfterSeconds),
  sso_setup_link_invalid: () => new KnownError("SSO_SETUP_LINK_INVALID"),
} satisfies ProblemMap<keyof SsoAdminProblemFields>;
