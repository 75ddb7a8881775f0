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
    default:
      return new StatusError(400, `Request failed: ${problem.reason}`);
  }
}

/** Unwraps an ok result or throws the matching known error. */
export function unwrap<R extends { ok: boolean }>(result: R): Extract<R, { ok: true }> {
  if (!result.ok) throw problemError(result as unknown as Problem);
  return result as Extract<R, { ok: true }>;
}
