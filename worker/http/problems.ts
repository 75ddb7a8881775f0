/**
 * Maps service outcomes (`{ok:false, reason}`, typed in worker/services/result.ts) to the wire's
 * known errors. Routes call `unwrap` (or `problemError`); only typed problems are accepted.
 */

import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@doorman/shared/constants";
import { KnownError, PASSWORD_RULE_MESSAGES } from "@doorman/shared/known-errors";
import { StatusError } from "../lib/errors";
import type { Problem, ProblemMap, ProblemReason } from "../services/result";
import { botChallengeProblems } from "./problems/bot-challenge";
import { dataVaultProblems } from "./problems/data-vault";
import { emailProblems } from "./problems/email";
import { hostedPagesProblems } from "./problems/hosted-pages";
import { paymentsProblems } from "./problems/payments";
import { protectionProblems } from "./problems/protection";
import { samlProblems } from "./problems/saml";
import { signUpRulesProblems } from "./problems/sign-up-rules";
// Enterprise SSO: management (issue 31, ADMIN).
import { ssoAdminProblems } from "./problems/sso-admin";
import { ssoSignInProblems } from "./problems/sso-sign-in";
import { webhooksProblems } from "./problems/webhooks";

export type { Problem, ProblemReason } from "../services/result";

/**
 * Every problem reason's wire error: the features' slices (worker/http/problems/<feature>.ts) and
 * the rest here. Exhaustive by type: a reason of ProblemFields with no entry (or an entry for no
 * reason) fails the typecheck, so there is no default case.
 */
const problemErrors = {
  ...paymentsProblems,
  ...emailProblems,
  ...webhooksProblems,
  ...dataVaultProblems,
  ...signUpRulesProblems,
  ...hostedPagesProblems,
  ...botChallengeProblems,
  ...protectionProblems,
  // Enterprise SSO: management (issue 31, ADMIN).
  ...ssoAdminProblems,
  ...samlProblems,
  // Enterprise SSO: the sign-in flow (issue 31, FLOW)
  ...ssoSignInProblems,
  password_too_short: () => new KnownError("PASSWORD_TOO_SHORT", { min_length: PASSWORD_MIN_LENGTH }),
  password_too_long: () => new KnownError("PASSWORD_TOO_LONG", { maxLength: PASSWORD_MAX_LENGTH }),
  // The reference's abstract parent, sent as is: its SDK rebuilds it from `details.message`.
  password_too_common: () => new KnownError("PASSWORD_REQUIREMENTS_NOT_MET", { message: PASSWORD_RULE_MESSAGES.tooCommon }),
  password_has_context_word: () => new KnownError("PASSWORD_REQUIREMENTS_NOT_MET", { message: PASSWORD_RULE_MESSAGES.contextWord }),
  password_breached: () => new KnownError("PASSWORD_BREACHED"),
  email_taken: (problem) => new KnownError("USER_EMAIL_ALREADY_EXISTS", { email: problem.email, would_work_if_email_was_verified: false }),
  invalid_password_hash: () => new StatusError(400, "Invalid password hash. Make sure it's a supported algorithm in Modular Crypt Format."),
  user_not_found: () => new KnownError("USER_NOT_FOUND"),
  team_not_member: (problem) => new KnownError("TEAM_MEMBERSHIP_NOT_FOUND", { team_id: problem.teamId, user_id: problem.userId ?? null }),
  password_auth_disabled: () => new KnownError("PASSWORD_AUTHENTICATION_NOT_ENABLED"),
  sign_up_disabled: () => new KnownError("SIGN_UP_NOT_ENABLED"),
  anonymous_sign_up_disabled: () => new KnownError("ANONYMOUS_ACCOUNTS_NOT_ENABLED"),
  email_password_mismatch: () => new KnownError("EMAIL_PASSWORD_MISMATCH"),
  no_password: () => new KnownError("USER_DOES_NOT_HAVE_PASSWORD"),
  old_password_mismatch: () => new KnownError("PASSWORD_CONFIRMATION_MISMATCH"),
  already_has_password: () => new StatusError(400, "User already has a password set."),
  code_not_found: () => new KnownError("VERIFICATION_CODE_NOT_FOUND"),
  code_expired: () => new KnownError("VERIFICATION_CODE_EXPIRED"),
  code_used: () => new KnownError("VERIFICATION_CODE_ALREADY_USED"),
  code_max_attempts: () => new KnownError("VERIFICATION_CODE_MAX_ATTEMPTS_REACHED"),
  untrusted_url: () => new KnownError("REDIRECT_URL_NOT_WHITELISTED"),
  magic_link_disabled: () => new StatusError(403, "Magic link / OTP sign-in is not enabled for this project."),
  email_unverified: (problem) =>
    new KnownError("USER_EMAIL_ALREADY_EXISTS", { email: problem.email, would_work_if_email_was_verified: true }),
  channel_not_found: () => new StatusError(404, "Contact channel not found."),
  // Changing or deleting a channel that is not there is a 400 on the wire; reading one a 404.
  channel_to_change_not_found: () => new StatusError(400, "Contact channel not found"),
  channel_duplicate: () => new StatusError(400, "Contact channel already exists"),
  primary_email_missing: (problem) => new StatusError(400, `${problem.field} cannot be true without primary_email`),
  channel_used_for_auth: (problem) =>
    new KnownError("CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", {
      type: "email",
      contact_channel_value: problem.value,
      would_work_if_email_was_verified: false,
    }),
  channel_gone: () => new StatusError(400, "The contact channel of this code no longer exists or has changed."),
  already_verified: () => new KnownError("EMAIL_ALREADY_VERIFIED"),
  no_primary_email: () => new StatusError(400, "User does not have a primary email"),
  not_primary_email: (problem) => new KnownError("EMAIL_IS_NOT_PRIMARY_EMAIL", { email: problem.email, primary_email: problem.primary }),
  category_not_found: () => new StatusError(404, "Notification category not found."),
  category_required: () => new StatusError(400, "This notification category cannot be disabled."),
  // Doorman adds `enrollment_required` (required second factor, none yet): the mfa page then shows the TOTP set-up.
  mfa_required: (problem) =>
    new KnownError("MULTI_FACTOR_AUTHENTICATION_REQUIRED", {
      attempt_code: problem.attemptCode,
      enrollment_required: problem.enrollmentRequired ?? false,
      // Doorman: the user's second factor is a passkey; only a passkey sign-in completes (no TOTP, no enrolment).
      passkey_required: problem.passkeyRequired ?? false,
    }),
  invalid_totp: () => new KnownError("INVALID_TOTP_CODE"),
  totp_not_enabled: () => new StatusError(400, "Turn on two-factor authentication (TOTP) first."),
  // --- oauth (sign-in flow) ---
  invalid_oauth_client: (problem) => new KnownError("INVALID_OAUTH_CLIENT_ID_OR_SECRET", { client_id: problem.clientId }),
  publishable_key_required: (problem) => new KnownError("PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", { project_id: problem.projectId }),
  invalid_publishable_key: (problem) => new KnownError("INVALID_PUBLISHABLE_CLIENT_KEY", { project_id: problem.projectId }),
  oauth_invalid_scope: () => new KnownError("INVALID_SCOPE"),
  oauth_provider_not_enabled: () => new KnownError("OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED"),
  oauth_provider_not_configured: () => new KnownError("OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED"),
  oauth_extra_scope_shared: () => new KnownError("OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS"),
  oauth_token_invalid: () => new KnownError("UNPARSABLE_ACCESS_TOKEN"),
  oauth_token_expired: (problem) => new KnownError("ACCESS_TOKEN_EXPIRED", problem.details),
  oauth_token_wrong_project: (problem) =>
    new KnownError("INVALID_PROJECT_FOR_ACCESS_TOKEN", {
      expected_project_id: problem.expected,
      actual_project_id: problem.actual,
    }),
  oauth_link_requires_token: () => new StatusError(400, "type=link requires the token of the user to link the account to."),
  oauth_pkce_plain_refused: () =>
    new StatusError(400, "Invalid request: `code_challenge_method` plain is not allowed for projects in production mode; use S256"),
  oauth_state_invalid: () => new StatusError(400, "Invalid OAuth state. Please try signing in again."),
  oauth_outer_timeout: () => new KnownError("OUTER_OAUTH_TIMEOUT"),
  oauth_inner_cookie_missing: () =>
    new StatusError(400, "The OAuth state cookie is missing: finish the sign-in in the browser that started it."),
  oauth_provider_access_denied: () => new KnownError("OAUTH_PROVIDER_ACCESS_DENIED"),
  oauth_provider_unavailable: () => new KnownError("OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE"),
  oauth_provider_rejected_code: () => new StatusError(400, "The OAuth provider did not accept the sign-in. Please try signing in again."),
  oauth_connection_taken: () => new KnownError("OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER"),
  oauth_email_in_use: (problem) =>
    new KnownError("CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", {
      type: "email",
      contact_channel_value: problem.email,
      would_work_if_email_was_verified: problem.wouldWorkIfVerified,
    }),
  invalid_authorization_code: () => new KnownError("INVALID_AUTHORIZATION_CODE"),
  oauth_redirect_uri_mismatch: () => new StatusError(400, "Invalid request: `redirect_uri` is invalid"),
  apple_bundle_id_not_configured: () => new KnownError("APPLE_BUNDLE_ID_NOT_CONFIGURED"),
  apple_credentials_invalid: () => new KnownError("INVALID_APPLE_CREDENTIALS"),
  // --- oauth cross-domain handoff (plain status errors, as the reference answers them) ---
  handoff_session_required: () =>
    new StatusError(400, "Cross-domain auth handoff requires a refresh-token-bound session. Please sign in again."),
  handoff_refresh_token_required: () => new StatusError(400, "Cross-domain auth handoff requires passing the current refresh token."),
  handoff_refresh_token_mismatch: () =>
    new StatusError(401, "Cross-domain auth handoff refresh token does not match the authenticated session."),
  handoff_refresh_token_invalid: () => new StatusError(401, "Cross-domain auth handoff refresh token is not valid."),
  // --- OpenID provider: clients (issue 30) ---
  oauth_client_not_found: (p) => new KnownError("OAUTH_CLIENT_NOT_FOUND", { client_id: p.clientId }),
  oauth_client_invalid: (p) => new KnownError("OAUTH_CLIENT_INVALID", { field: p.field, message: p.message }),
  // These two answer RFC 7591 JSON at /oauth/register (routes/oauth-provider/register.ts); this is their plain form.
  oauth_registration_disabled: () => new StatusError(403, "Dynamic client registration is turned off for this project."),
  oauth_client_limit_reached: (p) =>
    new StatusError(403, `This project has reached its limit of ${p.limit} dynamically registered clients.`),
  oauth_client_metadata_refused: (p) => new StatusError(400, `The client ID metadata document was refused: ${p.message}`),
  // --- OpenID provider: consent (issue 30) ---
  oauth_request_not_found: (problem) => new KnownError("OAUTH_AUTHORIZATION_REQUEST_NOT_FOUND", { request_id: problem.requestId }),
  oauth_team_required: () => new KnownError("OAUTH_TEAM_REQUIRED"),
  oauth_reauthentication_required: () => new KnownError("OAUTH_REAUTHENTICATION_REQUIRED"),
  oauth_consent_user_required: () => new KnownError("CANNOT_GET_OWN_USER_WITHOUT_USER"),
  oauth_authorized_app_not_found: (problem) => new KnownError("OAUTH_AUTHORIZED_APP_NOT_FOUND", { client_id: problem.clientId }),
  // --- oauth-providers and connected accounts ---
  linked_account_not_found: () => new StatusError(404, "OAuth provider not found for this user."),
  linked_provider_not_enabled: () => new KnownError("OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED"),
  linked_provider_not_configured: (problem) =>
    new StatusError(404, `OAuth provider ${problem.providerConfigId} not found or not configured`),
  linked_account_id_used_for_sign_in: () => new KnownError("OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN"),
  linked_sign_in_provider_exists: () => new StatusError(400, "The same provider type with sign-in enabled already exists for this user."),
  linked_account_duplicate: () => new StatusError(400, "The same provider type with the same account ID already exists for this user."),
  connection_not_connected: () => new KnownError("OAUTH_CONNECTION_NOT_CONNECTED_TO_USER"),
  connection_missing_scope: () => new KnownError("OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE"),
  connection_shared_extra_scope: () => new KnownError("OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS"),
  // --- passkeys ---
  passkey_disabled: () => new KnownError("PASSKEY_AUTHENTICATION_NOT_ENABLED"),
  passkey_registration_failed: (problem) => new KnownError("PASSKEY_REGISTRATION_FAILED", undefined, problem.message),
  passkey_authentication_failed: (problem) => new KnownError("PASSKEY_AUTHENTICATION_FAILED", undefined, problem.message),
  // --- cli ---
  cli_polling_code_invalid: () => new KnownError("INVALID_POLLING_CODE"),
  cli_user_gone: () => new KnownError("CLI_AUTH_ERROR", undefined, "The user who confirmed this CLI login no longer exists."),
  // The cli texts below are the reference's (its clients match on them).
  cli_anon_token_invalid: () => new StatusError(400, "Invalid anon refresh token: it is not a live session of this project."),
  cli_anon_token_not_anonymous: () => new StatusError(400, "The provided refresh token does not belong to an anonymous user."),
  cli_login_invalid: () => new StatusError(400, "The CLI login code is invalid."),
  cli_login_expired: () => new StatusError(400, "This CLI login has expired. Start the login from the command line again."),
  cli_login_used: () => new StatusError(400, "This CLI login has already been completed."),
  cli_no_anonymous_session: () => new StatusError(400, "No anonymous session associated with this code."),
  cli_refresh_token_invalid: () => new StatusError(400, "Invalid refresh token: it is unknown or has expired."),
  cli_refresh_token_mismatch: () => new StatusError(400, "The refresh token belongs to another user than the signed-in one."),
  cli_user_required: () => new StatusError(400, "refresh_token is required when mode is 'complete' and no user is signed in."),
  cli_user_restricted: (problem) => new KnownError("RESTRICTED_USER_NOT_ALLOWED", { restricted_reason: problem.restrictedReason }),
  // --- teams, memberships, invitations ---
  team_not_found: (problem) => new KnownError("TEAM_NOT_FOUND", { team_id: problem.teamId }),
  membership_exists: () => new KnownError("TEAM_MEMBERSHIP_ALREADY_EXISTS"),
  user_id_not_found: (problem) => new KnownError("USER_ID_DOES_NOT_EXIST", { user_id: problem.userId }),
  client_team_creation_disabled: () => new StatusError(403, "Client team creation is disabled for this project"),
  creator_not_self: () =>
    new StatusError(403, "You cannot create a team as a user that is not yourself. Make sure you set the creator_user_id to 'me'."),
  team_id_required: () => new StatusError(400, "team_id is required for access type client"),
  profile_not_own: () => new StatusError(403, "Cannot update another user's profile"),
  invitation_restricted_user: (problem) =>
    new KnownError("TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED", { restricted_reason: problem.restrictedReason }),
  // --- permissions ---
  team_permission_required: (problem) =>
    new KnownError("TEAM_PERMISSION_REQUIRED", {
      team_id: problem.teamId,
      user_id: problem.userId,
      permission_id: problem.permissionId,
    }),
  team_permission_not_found: (problem) =>
    new KnownError("TEAM_PERMISSION_NOT_FOUND", {
      team_id: problem.teamId,
      user_id: problem.userId,
      permission_id: problem.permissionId,
    }),
  permission_not_found: (problem) => new KnownError("PERMISSION_NOT_FOUND", { permission_id: problem.permissionId }),
  wrong_permission_scope: (problem) =>
    new KnownError("WRONG_PERMISSION_SCOPE", {
      permission_id: problem.permissionId,
      expected_scope: problem.expected,
      actual_scope: problem.actual,
    }),
  contained_permission_not_found: (problem) => new KnownError("CONTAINED_PERMISSION_NOT_FOUND", { permission_id: problem.permissionId }),
  permission_id_exists: (problem) => new KnownError("PERMISSION_ID_ALREADY_EXISTS", { permission_id: problem.permissionId }),
  permission_cycle: (problem) =>
    new KnownError("SCHEMA_ERROR", {
      message: `Permission "${problem.permissionId}" cannot contain "${problem.containedId}": containment would form a cycle.`,
    }),
  // --- api keys ---
  // The reference answers a plain 400 here; the wire has no known error for it.
  api_keys_disabled: (problem) =>
    new StatusError(400, `${problem.type === "team" ? "Team" : "User"} API keys are not enabled for this project.`),
  api_key_not_found: () => new KnownError("API_KEY_NOT_FOUND"),
  api_key_expired: () => new KnownError("API_KEY_EXPIRED"),
  api_key_revoked: () => new KnownError("API_KEY_REVOKED"),
  wrong_api_key_type: (problem) => new KnownError("WRONG_API_KEY_TYPE", { expected_type: problem.expected, actual_type: problem.actual }),
  public_api_key_cannot_be_revoked: () => new KnownError("PUBLIC_API_KEY_CANNOT_BE_REVOKED"),
  api_key_team_not_found: (problem) => new KnownError("TEAM_NOT_FOUND", { team_id: problem.teamId }),
  // --- projects (internal API; worker/routes/internal/projects.ts answers the same) ---
  invalid_config: (problem) => new StatusError(400, problem.message),
  // As the reference: a config override it cannot take is a plain 400 naming the key, without a known-error code.
  invalid_config_override: (problem) => new StatusError(400, problem.message),
  config_conflict: () => new StatusError(409, "The project's config kept changing during this update. Try again."),
  invalid_oauth_provider_id: (problem) =>
    new KnownError(problem.providerType === "shared" ? "INVALID_SHARED_OAUTH_PROVIDER_ID" : "INVALID_STANDARD_OAUTH_PROVIDER_ID", {
      provider_id: problem.providerId,
    }),
  not_owner_team_member: () =>
    new KnownError("TEAM_MEMBERSHIP_NOT_FOUND", { team_id: null, user_id: null }, "You must be a member of the owner team."),
  project_not_found: () => new KnownError("PROJECT_NOT_FOUND", { project_id: null }),
  internal_project: () => new StatusError(400, "The internal project cannot be deleted."),
  // The console owners' sessions belong to the internal project: ending them all would lock every owner out.
  internal_project_sessions: () => new StatusError(400, "The sessions of the internal project cannot all be ended at once."),
} satisfies ProblemMap<ProblemReason>;

/** The wire error of a service's failed outcome. */
export function problemError(problem: Problem): Error {
  const toError = problemErrors[problem.reason] as (problem: Problem) => Error;
  return toError(problem);
}

/** Unwraps an ok result or throws the matching known error. */
export function unwrap<R extends { ok: true } | Problem>(result: R): Extract<R, { ok: true }> {
  if (!result.ok) throw problemError(result);
  return result as Extract<R, { ok: true }>;
}
