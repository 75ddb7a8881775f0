/** Maps service outcomes (`{ok:false, reason}`) to the wire's known errors. Routes call this. */

import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../sdk/src/shared/constants";
import { KnownError } from "../../sdk/src/shared/known-errors";
import { StatusError } from "./errors";

export type Problem = { ok: false; reason: string; [key: string]: unknown };

export function problemError(problem: Problem): Error {
  switch (problem.reason) {
    case "password_too_short":
      return new KnownError("PASSWORD_TOO_SHORT", { min_length: PASSWORD_MIN_LENGTH });
    case "password_too_long":
      return new KnownError("PASSWORD_TOO_LONG", { maxLength: PASSWORD_MAX_LENGTH });
    case "email_taken":
      return new KnownError("USER_EMAIL_ALREADY_EXISTS", { email: problem.email, would_work_if_email_was_verified: false });
    case "invalid_password_hash":
      return new KnownError("SCHEMA_ERROR", { message: "password_hash must be a bcrypt hash ($2a$/$2b$/$2y$)." });
    case "not_found":
    case "user_not_found":
      return new KnownError("USER_NOT_FOUND");
    case "team_not_member":
      return new KnownError("TEAM_MEMBERSHIP_NOT_FOUND", { team_id: problem.teamId, user_id: problem.userId ?? null });
    case "password_auth_disabled":
      return new KnownError("PASSWORD_AUTHENTICATION_NOT_ENABLED");
    case "sign_up_disabled":
      return new KnownError("SIGN_UP_NOT_ENABLED");
    case "mismatch":
      return new KnownError("EMAIL_PASSWORD_MISMATCH");
    case "no_password":
      return new KnownError("USER_DOES_NOT_HAVE_PASSWORD");
    case "old_password_mismatch":
      return new KnownError("PASSWORD_CONFIRMATION_MISMATCH");
    case "already_has_password":
      return new StatusError(400, "User already has a password set.");
    case "code_not_found":
      return new KnownError("VERIFICATION_CODE_NOT_FOUND");
    case "code_expired":
      return new KnownError("VERIFICATION_CODE_EXPIRED");
    case "code_used":
      return new KnownError("VERIFICATION_CODE_ALREADY_USED");
    case "code_max_attempts":
      return new KnownError("VERIFICATION_CODE_MAX_ATTEMPTS_REACHED");
    case "untrusted_url":
      return new KnownError("REDIRECT_URL_NOT_WHITELISTED");
    case "magic_link_disabled":
      return new StatusError(403, "Magic link / OTP sign-in is not enabled for this project.");
    case "email_unverified":
      return new KnownError("USER_EMAIL_ALREADY_EXISTS", { email: problem.email, would_work_if_email_was_verified: true });
    case "channel_not_found":
      return new StatusError(404, "Contact channel not found.");
    case "channel_duplicate":
      return new StatusError(409, "This user already has this contact channel.");
    case "channel_used_for_auth":
      return new KnownError("CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", {
        type: "email",
        contact_channel_value: problem.value,
        would_work_if_email_was_verified: false,
      });
    case "channel_gone":
      return new StatusError(400, "The contact channel of this code no longer exists or has changed.");
    case "already_verified":
      return new KnownError("EMAIL_ALREADY_VERIFIED");
    case "no_primary_email":
      return new StatusError(400, "User does not have a primary email");
    case "not_primary_email":
      return new KnownError("EMAIL_IS_NOT_PRIMARY_EMAIL", { email: problem.email, primary_email: problem.primary });
    case "category_not_found":
      return new StatusError(404, "Notification category not found.");
    case "category_required":
      return new StatusError(400, "This notification category cannot be disabled.");
    case "mfa_required":
      return new KnownError("MULTI_FACTOR_AUTHENTICATION_REQUIRED", { attempt_code: problem.attemptCode });
    case "invalid_totp":
      return new KnownError("INVALID_TOTP_CODE");
    case "refresh_failed":
      return new KnownError("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    // --- oauth (sign-in flow) ---
    case "invalid_oauth_client":
      return new KnownError("INVALID_OAUTH_CLIENT_ID_OR_SECRET", { client_id: problem.clientId ?? null });
    case "publishable_key_required":
      return new KnownError("PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", { project_id: problem.projectId });
    case "oauth_invalid_scope":
      return new KnownError("INVALID_SCOPE");
    case "oauth_provider_not_enabled":
      return new KnownError("OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED");
    case "oauth_extra_scope_shared":
      return new KnownError("OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS");
    case "oauth_token_invalid":
      return new KnownError("UNPARSABLE_ACCESS_TOKEN");
    case "oauth_token_expired":
      return new KnownError("ACCESS_TOKEN_EXPIRED", problem.details as Record<string, unknown>);
    case "oauth_token_wrong_project":
      return new KnownError("INVALID_PROJECT_FOR_ACCESS_TOKEN", {
        expected_project_id: problem.expected,
        actual_project_id: problem.actual,
      });
    case "oauth_link_requires_token":
      return new StatusError(400, "type=link requires the token of the user to link the account to.");
    case "oauth_state_invalid":
      return new StatusError(400, "Invalid OAuth state. Please try signing in again.");
    case "oauth_outer_timeout":
      return new KnownError("OUTER_OAUTH_TIMEOUT");
    case "oauth_inner_cookie_missing":
      return new StatusError(400, "The OAuth state cookie is missing: finish the sign-in in the browser that started it.");
    case "oauth_provider_access_denied":
      return new KnownError("OAUTH_PROVIDER_ACCESS_DENIED");
    case "oauth_provider_unavailable":
      return new KnownError("OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE");
    case "oauth_provider_rejected_code":
      return new StatusError(400, "The OAuth provider did not accept the sign-in. Please try signing in again.");
    case "oauth_connection_taken":
      return new KnownError("OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER");
    case "oauth_email_in_use":
      return new KnownError("CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", {
        type: "email",
        contact_channel_value: problem.email,
        would_work_if_email_was_verified: problem.wouldWorkIfVerified,
      });
    case "invalid_authorization_code":
      return new KnownError("INVALID_AUTHORIZATION_CODE");
    case "oauth_redirect_uri_mismatch":
      return new StatusError(400, "Invalid request: `redirect_uri` is invalid");
    // --- oauth-providers and connected accounts ---
    case "linked_account_not_found":
      return new StatusError(404, "OAuth provider not found for this user.");
    case "linked_provider_not_enabled":
      return new KnownError("OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED");
    case "linked_account_id_used_for_sign_in":
      return new KnownError("OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN");
    case "linked_sign_in_provider_exists":
      return new StatusError(400, "The same provider type with sign-in enabled already exists for this user.");
    case "linked_account_duplicate":
      return new StatusError(400, "The same provider type with the same account ID already exists for this user.");
    case "connection_not_connected":
      return new KnownError("OAUTH_CONNECTION_NOT_CONNECTED_TO_USER");
    case "connection_missing_scope":
      return new KnownError("OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE");
    case "connection_shared_extra_scope":
      return new KnownError("OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS");
    // --- passkeys ---
    case "passkey_disabled":
      return new KnownError("PASSKEY_AUTHENTICATION_NOT_ENABLED");
    case "passkey_registration_failed":
      return new KnownError("PASSKEY_REGISTRATION_FAILED", undefined, String(problem.message));
    case "passkey_authentication_failed":
      return new KnownError("PASSKEY_AUTHENTICATION_FAILED", undefined, String(problem.message));
    // --- cli ---
    case "cli_polling_code_invalid":
      return new KnownError("INVALID_POLLING_CODE");
    case "cli_user_gone":
      return new KnownError("CLI_AUTH_ERROR", undefined, "The user who confirmed this CLI login no longer exists.");
    case "cli_anon_token_invalid":
      return new StatusError(400, "anon_refresh_token is not a live session of an anonymous user of this project.");
    case "cli_login_invalid":
      return new StatusError(400, "The CLI login code is invalid.");
    case "cli_login_expired":
      return new StatusError(400, "This CLI login has expired. Start the login from the command line again.");
    case "cli_login_used":
      return new StatusError(400, "This CLI login has already been completed.");
    case "cli_no_anonymous_session":
      return new StatusError(400, "No anonymous session is associated with this CLI login.");
    case "cli_refresh_token_invalid":
      return new StatusError(400, "The refresh token is invalid or has expired.");
    case "cli_refresh_token_mismatch":
      return new StatusError(400, "The refresh token belongs to another user than the signed-in one.");
    case "cli_user_required":
      return new KnownError("CANNOT_GET_OWN_USER_WITHOUT_USER");
    case "cli_user_restricted":
      return new KnownError("RESTRICTED_USER_NOT_ALLOWED", { restricted_reason: problem.restrictedReason });
    // --- teams, memberships, invitations ---
    case "team_not_found":
      return new KnownError("TEAM_NOT_FOUND", { team_id: problem.teamId });
    case "membership_exists":
      return new KnownError("TEAM_MEMBERSHIP_ALREADY_EXISTS");
    case "user_id_not_found":
      return new KnownError("USER_ID_DOES_NOT_EXIST", { user_id: problem.userId });
    case "client_team_creation_disabled":
      return new StatusError(403, "Client team creation is disabled for this project");
    case "creator_not_self":
      return new StatusError(
        403,
        "You cannot create a team as a user that is not yourself. Make sure you set the creator_user_id to 'me'.",
      );
    case "team_id_required":
      return new StatusError(400, "team_id is required for access type client");
    case "profile_not_own":
      return new StatusError(403, "Cannot update another user's profile");
    case "invitation_restricted_user":
      return new KnownError("TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED", { restricted_reason: problem.restrictedReason });
    // --- permissions ---
    case "team_permission_required":
      return new KnownError("TEAM_PERMISSION_REQUIRED", {
        team_id: problem.teamId,
        user_id: problem.userId,
        permission_id: problem.permissionId,
      });
    case "team_permission_not_found":
      return new KnownError("TEAM_PERMISSION_NOT_FOUND", {
        team_id: problem.teamId,
        user_id: problem.userId,
        permission_id: problem.permissionId,
      });
    case "permission_not_found":
      return new KnownError("PERMISSION_NOT_FOUND", { permission_id: problem.permissionId });
    case "wrong_permission_scope":
      return new KnownError("WRONG_PERMISSION_SCOPE", {
        permission_id: problem.permissionId,
        expected_scope: problem.expected,
        actual_scope: problem.actual,
      });
    case "contained_permission_not_found":
      return new KnownError("CONTAINED_PERMISSION_NOT_FOUND", { permission_id: problem.permissionId });
    case "permission_id_exists":
      return new KnownError("PERMISSION_ID_ALREADY_EXISTS", { permission_id: problem.permissionId });
    case "permission_cycle":
      return new KnownError("SCHEMA_ERROR", {
        message: `Permission "${problem.permissionId}" cannot contain "${problem.containedId}": containment would form a cycle.`,
      });
    // --- api keys ---
    case "api_keys_disabled":
      // The reference answers a plain 400 here; the wire has no known error for it.
      return new StatusError(400, `${problem.type === "team" ? "Team" : "User"} API keys are not enabled for this project.`);
    case "api_key_not_found":
      return new KnownError("API_KEY_NOT_FOUND");
    case "api_key_expired":
      return new KnownError("API_KEY_EXPIRED");
    case "api_key_revoked":
      return new KnownError("API_KEY_REVOKED");
    case "wrong_api_key_type":
      return new KnownError("WRONG_API_KEY_TYPE", { expected_type: problem.expected, actual_type: problem.actual });
    case "public_api_key_cannot_be_revoked":
      return new KnownError("PUBLIC_API_KEY_CANNOT_BE_REVOKED");
    case "api_key_team_not_found":
      return new KnownError("TEAM_NOT_FOUND", { team_id: problem.teamId });
    default:
      return new StatusError(400, `Request failed: ${problem.reason}`);
  }
}

/** Unwraps an ok result or throws the matching known error. */
export function unwrap<R extends { ok: boolean }>(result: R): Extract<R, { ok: true }> {
  if (!result.ok) throw problemError(result as unknown as Problem);
  return result as Extract<R, { ok: true }>;
}
