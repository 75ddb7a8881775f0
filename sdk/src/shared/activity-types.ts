/**
 * The event types an end user sees as their own "Recent activity" (GET /users/{user_id}/activity).
 * No imports: shared by the worker (the filter), the SDK and the React components (the labels)
 * without pulling a schema library into a browser bundle.
 *
 * Only the user's own security events. Impersonation, permission grants, team and project changes
 * are left out: they are what owners and admins did, and owners see them in the console's event log.
 */
export const USER_ACTIVITY_TYPES = [
  "sign_in.succeeded",
  "sign_in.failed",
  "sign_out",
  "session.revoked",
  "session.token_reused",
  "password.changed",
  "password.reset",
  "email.verified",
  "mfa.enrolled",
  "mfa.removed",
  "mfa.recovery_codes_generated",
  "mfa.recovery_code_used",
  "sign_in.locked_out",
  // New-device verification (issue 29).
  "device.verification_required",
  "device.verification_succeeded",
  "device.verification_failed",
  "device.added",
  "passkey.added",
  "oauth_account.linked",
  "api_key.created",
  "api_key.revoked",
  // The OpenID provider (issue 30): apps the user let in, took out, and tokens revoked for reuse or by the app.
  "oauth_app.authorized",
  "oauth_app.revoked",
  "oauth_token.revoked",
] as const;

export type UserActivityType = (typeof USER_ACTIVITY_TYPES)[number];
