/** Wire views of users (wire-protocol.md §2). Outputs never carry secrets. */
import type { UserClientJson, UserServerJson } from "@doorman/shared/wire";
import type { UserRecord } from "../db/queries/users";
import type { FlatProjectConfig } from "./project-config/flat";
import { teamClientView, teamServerView } from "./team-view";
import { restrictedReasonOf } from "./user-restrictions";

export function userServerView(record: UserRecord, config: FlatProjectConfig): UserServerJson {
  const { user, primaryEmail, selectedTeam } = record;
  const reason = restrictedReasonOf(record, config);
  return {
    id: user.id,
    primary_email: primaryEmail?.value ?? null,
    primary_email_verified: primaryEmail?.isVerified ?? false,
    primary_email_auth_enabled: primaryEmail?.usedForAuth ?? false,
    display_name: user.displayName ?? null,
    selected_team: selectedTeam ? teamServerView(selectedTeam) : null,
    selected_team_id: selectedTeam?.id ?? null,
    profile_image_url: user.profileImageUrl ?? null,
    signed_up_at_millis: user.signedUpAt,
    has_password: Boolean(user.passwordHash),
    otp_auth_enabled: user.otpAuthEnabled,
    passkey_auth_enabled: user.passkeyAuthEnabled,
    client_metadata: user.clientMetadata ?? null,
    client_read_only_metadata: user.clientReadOnlyMetadata ?? null,
    server_metadata: user.serverMetadata ?? null,
    last_active_at_millis: user.lastActiveAt,
    is_anonymous: user.isAnonymous,
    is_restricted: reason !== null,
    restricted_reason: reason,
    restricted_by_admin: user.restrictedByAdmin,
    restricted_by_admin_reason: user.restrictedByAdminReason ?? null,
    restricted_by_admin_private_details: user.restrictedByAdminPrivateDetails ?? null,
    country_code: user.countryCode ?? null,
    risk_scores: (user.riskScores as UserServerJson["risk_scores"] | null) ?? { sign_up: { bot: 0, free_trial_abuse: 0 } },
    oauth_providers: (record.oauthProviders ?? []).map((p) => ({ id: p.providerConfigId, account_id: p.accountId, email: p.email })),
    // As the wire: a password or OTP sign-in exists (deprecated field, independent of primary_email_auth_enabled).
    auth_with_email: Boolean(user.passwordHash) || user.otpAuthEnabled,
    requires_totp_mfa: Boolean(user.totpSecret),
  };
}

export function userClientView(record: UserRecord, config: FlatProjectConfig): UserClientJson {
  const s = userServerView(record, config);
  return {
    id: s.id,
    primary_email: s.primary_email,
    primary_email_verified: s.primary_email_verified,
    display_name: s.display_name,
    client_metadata: s.client_metadata,
    client_read_only_metadata: s.client_read_only_metadata,
    profile_image_url: s.profile_image_url,
    signed_up_at_millis: s.signed_up_at_millis,
    has_password: s.has_password,
    auth_with_email: s.auth_with_email,
    oauth_providers: s.oauth_providers.map(({ id }) => ({ id })),
    selected_team_id: s.selected_team_id,
    selected_team: record.selectedTeam ? teamClientView(record.selectedTeam) : null,
    requires_totp_mfa: s.requires_totp_mfa,
    otp_auth_enabled: s.otp_auth_enabled,
    passkey_auth_enabled: s.passkey_auth_enabled,
    is_anonymous: s.is_anonymous,
    is_restricted: s.is_restricted,
    restricted_reason: s.restricted_reason,
    restricted_by_admin: s.restricted_by_admin,
    restricted_by_admin_reason: s.restricted_by_admin_reason,
  };
}
