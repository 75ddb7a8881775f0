/**
 * The typed failures services return (`{ok:false, reason, ...fields}`), one entry per reason.
 * worker/http/problems.ts maps every reason to its wire error; a reason added here without a
 * mapping there, or a service failing with a reason not listed here, fails the typecheck.
 * A feature with many reasons declares its slice beside its services (services/payments/problems.ts,
 * services/email/problems.ts, services/webhooks/problems.ts, services/data-vault/problems.ts) and its part of the map in
 * worker/http/problems/<feature>.ts; ProblemFields joins the slices, which must not share a reason.
 *
 * @example
 * if (taken) return fail("email_taken", { email });
 * if (!row) return fail("code_not_found");
 */

import type { RestrictedReason } from "../crypto/access-tokens";
import type { ApiKeyType } from "../crypto/api-key-format";
import type { PermissionScope } from "../db/queries/permissions";
import type { DataVaultProblemFields } from "./data-vault/problems";
import type { EmailProblemFields } from "./email/problems";
import type { HostedPagesProblemFields } from "./hosted-pages/problems";
import type { PaymentsProblemFields } from "./payments/problems";
import type { BotChallengeProblemFields } from "./protection/bot-challenge-problems";
import type { ProtectionProblemFields } from "./protection/problems";
import type { SignUpRulesProblemFields } from "./sign-up-rules/problems";
// Enterprise SSO: management (issue 31, ADMIN).
import type { SsoAdminProblemFields } from "./sso/admin-problems";
import type { SamlProblemFields } from "./sso/saml/problems";
import type { SsoSignInProblemFields } from "./sso/sign-in-problems";
import type { WebhooksProblemFields } from "./webhooks/problems";

type NoFields = Record<never, never>;
type TeamUserPermission = { teamId: string; userId: string; permissionId: string };

/** The reasons of the features without a slice of their own, with the fields their wire errors read. */
type CoreProblemFields = {
  // --- users and passwords ---
  password_too_short: NoFields;
  password_too_long: NoFields;
  password_too_common: NoFields;
  password_has_context_word: NoFields;
  password_breached: NoFields;
  email_taken: { email: string };
  invalid_password_hash: NoFields;
  user_not_found: NoFields;
  team_not_member: { teamId: string; userId?: string };
  password_auth_disabled: NoFields;
  sign_up_disabled: NoFields;
  anonymous_sign_up_disabled: NoFields;
  email_password_mismatch: NoFields;
  no_password: NoFields;
  old_password_mismatch: NoFields;
  already_has_password: NoFields;
  // --- verification codes, OTP, contact channels, notifications ---
  code_not_found: NoFields;
  code_expired: NoFields;
  code_used: NoFields;
  code_max_attempts: NoFields;
  untrusted_url: NoFields;
  magic_link_disabled: NoFields;
  email_unverified: { email: string };
  channel_not_found: NoFields;
  channel_to_change_not_found: NoFields;
  channel_duplicate: NoFields;
  primary_email_missing: { field: "primary_email_verified" | "primary_email_auth_enabled" };
  channel_used_for_auth: { value: string };
  channel_gone: NoFields;
  already_verified: NoFields;
  no_primary_email: NoFields;
  not_primary_email: { email: string; primary: string };
  category_not_found: NoFields;
  category_required: NoFields;
  // --- MFA ---
  /** `enrollmentRequired`: the project requires a second factor and the user has none yet (Doorman). */
  /** `passkeyRequired`: the project requires a second factor and the user's is a passkey: sign in with it (Doorman). */
  mfa_required: { attemptCode: string; enrollmentRequired?: boolean; passkeyRequired?: boolean };
  invalid_totp: NoFields;
  totp_not_enabled: NoFields;
  // --- oauth (sign-in flow) ---
  invalid_oauth_client: { clientId: string };
  publishable_key_required: { projectId: string };
  invalid_publishable_key: { projectId: string };
  oauth_invalid_scope: NoFields;
  oauth_provider_not_enabled: NoFields;
  /** The provider is enabled but has no keys (the project's, or the server's shared ones). */
  oauth_provider_not_configured: NoFields;
  oauth_extra_scope_shared: NoFields;
  oauth_token_invalid: NoFields;
  oauth_token_expired: {
    details: { expired_at_millis: number; project_id: string | null; user_id: string | null; refresh_token_id: string | null };
  };
  oauth_token_wrong_project: { expected: string; actual: string };
  oauth_link_requires_token: NoFields;
  oauth_pkce_plain_refused: NoFields;
  oauth_state_invalid: NoFields;
  oauth_outer_timeout: NoFields;
  oauth_inner_cookie_missing: NoFields;
  oauth_provider_access_denied: NoFields;
  oauth_provider_unavailable: NoFields;
  oauth_provider_rejected_code: NoFields;
  oauth_connection_taken: NoFields;
  oauth_email_in_use: { email: string; wouldWorkIfVerified: boolean };
  invalid_authorization_code: NoFields;
  oauth_redirect_uri_mismatch: NoFields;
  /** Native Sign in with Apple: no bundle id is configured, or the identity token did not verify. */
  apple_bundle_id_not_configured: NoFields;
  apple_credentials_invalid: NoFields;
  handoff_session_required: NoFields;
  handoff_refresh_token_required: NoFields;
  handoff_refresh_token_mismatch: NoFields;
  handoff_refresh_token_invalid: NoFields;
  // --- OpenID provider: clients (issue 30; services/oauth-provider/client-*.ts) ---
  oauth_client_not_found: { clientId: string };
  /** A client's metadata breaks a rule: `field` is its wire name (redirect_uris, logo_uri, …), `message` says which rule. */
  oauth_client_invalid: { field: string; message: string };
  /** RFC 7591 registration while the project has it off (answered as RFC JSON by routes/oauth-provider/register.ts). */
  oauth_registration_disabled: NoFields;
  /** RFC 7591 registration past the project's cap of dynamic clients. */
  oauth_client_limit_reached: { limit: number };
  /** A client ID metadata document that could not be fetched or was refused (resolveClient answers null). */
  oauth_client_metadata_refused: { message: string };
  // --- OpenID provider: consent (issue 30) ---
  /** Unknown, expired, already answered, another project's, or its client is gone. */
  oauth_request_not_found: { requestId: string };
  oauth_team_required: NoFields;
  /** The app asked for prompt=login or a max_age the session is older than: sign in again first. */
  oauth_reauthentication_required: NoFields;
  /** Deny without a session answers only a prompt=none request; any other needs the user. */
  oauth_consent_user_required: NoFields;
  oauth_authorized_app_not_found: { clientId: string };
  // --- oauth-providers and connected accounts ---
  linked_account_not_found: NoFields;
  linked_provider_not_enabled: NoFields;
  linked_provider_not_configured: { providerConfigId: string };
  linked_account_id_used_for_sign_in: NoFields;
  linked_sign_in_provider_exists: NoFields;
  linked_account_duplicate: NoFields;
  connection_not_connected: NoFields;
  connection_missing_scope: NoFields;
  connection_shared_extra_scope: NoFields;
  // --- passkeys ---
  passkey_disabled: NoFields;
  passkey_registration_failed: { message: string };
  passkey_authentication_failed: { message: string };
  // --- cli ---
  cli_polling_code_invalid: NoFields;
  cli_user_gone: NoFields;
  cli_anon_token_invalid: NoFields;
  cli_anon_token_not_anonymous: NoFields;
  cli_login_invalid: NoFields;
  cli_login_expired: NoFields;
  cli_login_used: NoFields;
  cli_no_anonymous_session: NoFields;
  cli_refresh_token_invalid: NoFields;
  cli_refresh_token_mismatch: NoFields;
  cli_user_required: NoFields;
  cli_user_restricted: { restrictedReason: RestrictedReason };
  // --- teams, memberships, invitations ---
  team_not_found: { teamId: string };
  membership_exists: { teamId: string; userId: string };
  user_id_not_found: { userId: string };
  client_team_creation_disabled: NoFields;
  creator_not_self: NoFields;
  team_id_required: NoFields;
  profile_not_own: NoFields;
  invitation_restricted_user: { restrictedReason: RestrictedReason };
  // --- permissions ---
  team_permission_required: TeamUserPermission;
  team_permission_not_found: TeamUserPermission;
  permission_not_found: { permissionId: string };
  wrong_permission_scope: { permissionId: string; expected: PermissionScope; actual: PermissionScope };
  contained_permission_not_found: { permissionId: string };
  permission_id_exists: { permissionId: string };
  permission_cycle: { permissionId: string; containedId: string };
  // --- api keys ---
  api_keys_disabled: { type: ApiKeyType };
  api_key_not_found: NoFields;
  api_key_expired: NoFields;
  api_key_revoked: NoFields;
  wrong_api_key_type: { expected: ApiKeyType; actual: ApiKeyType };
  public_api_key_cannot_be_revoked: NoFields;
  api_key_team_not_found: { teamId: string };
  // --- projects (internal API) ---
  invalid_config: { message: string };
  invalid_config_override: { message: string };
  config_conflict: NoFields;
  invalid_oauth_provider_id: { providerId: string; providerType: "shared" | "standard" };
  not_owner_team_member: NoFields;
  project_not_found: NoFields;
  internal_project: NoFields;
  internal_project_sessions: NoFields;
};

type Slices = [
  CoreProblemFields,
  PaymentsProblemFields,
  EmailProblemFields,
  WebhooksProblemFields,
  DataVaultProblemFields,
  SignUpRulesProblemFields,
  HostedPagesProblemFields,
  BotChallengeProblemFields,
  ProtectionProblemFields,
  // Enterprise SSO: management (issue 31, ADMIN).
  SsoAdminProblemFields,
  SamlProblemFields,
  // Enterprise SSO: the sign-in flow (issue 31, FLOW)
  SsoSignInProblemFields,
];
/** The reasons two slices share (each pair once): must be none, or one slice's fields would silently merge into another's. */
type SharedReasons<S extends unknown[]> = S extends [infer Head, ...infer Tail]
  ? { [I in keyof Tail]: keyof Head & keyof Tail[I] }[number] | SharedReasons<Tail>
  : never;
type AssertNone<T extends never> = T;
export type _SlicesAreDisjoint = AssertNone<SharedReasons<Slices>>;

/** Each problem reason with the fields its wire error reads. */
export type ProblemFields = CoreProblemFields &
  PaymentsProblemFields &
  EmailProblemFields &
  WebhooksProblemFields &
  DataVaultProblemFields &
  SignUpRulesProblemFields &
  HostedPagesProblemFields &
  BotChallengeProblemFields &
  ProtectionProblemFields &
  // Enterprise SSO: management (issue 31, ADMIN).
  SsoAdminProblemFields &
  SamlProblemFields &
  // Enterprise SSO: the sign-in flow (issue 31, FLOW)
  SsoSignInProblemFields;

export type ProblemReason = keyof ProblemFields;

/** A failed outcome with reason `R` (a union of reasons gives a union of problems). */
export type Problem<R extends ProblemReason = ProblemReason> = {
  [K in R]: { ok: false; reason: K } & ProblemFields[K];
}[R];

type FieldsArgs<R extends ProblemReason> = keyof ProblemFields[R] extends never ? [] : [fields: ProblemFields[R]];

/** Builds the problem `reason`, with its fields when it has any. */
export function fail<R extends ProblemReason>(reason: R, ...fields: FieldsArgs<R>): Problem<R> {
  return { ok: false, reason, ...fields[0] } as Problem<R>;
}

/** The wire error of each reason in `R` (a slice's part of the map in worker/http/problems/). */
export type ProblemMap<R extends ProblemReason> = { [K in R]: (problem: Problem<K>) => Error };
