/** Shapes rows into the wire objects of wire-protocol.md §2. Outputs never carry secrets. */

import type { RestrictedReason } from "../crypto/access-tokens";
import type { ApiKeySetRow } from "../db/queries/api-key-sets";
import type { ProjectRow } from "../db/queries/projects";
import type { SessionRow } from "../db/queries/sessions";
import type { TeamRow, UserRecord } from "../db/queries/users";
import { type ProjectConfig, readProjectConfig } from "./project-config";

export function restrictedReasonOf(record: UserRecord, config: ProjectConfig): RestrictedReason | null {
  if (record.user.isAnonymous) return { type: "anonymous" };
  if (record.user.restrictedByAdmin) return { type: "restricted_by_administrator" };
  if (config.require_email_verification && !record.primaryEmail?.isVerified) return { type: "email_not_verified" };
  return null;
}

export function teamClientView(team: TeamRow) {
  return {
    id: team.id,
    display_name: team.displayName,
    profile_image_url: team.profileImageUrl ?? null,
    client_metadata: team.clientMetadata ?? null,
    client_read_only_metadata: team.clientReadOnlyMetadata ?? null,
  };
}

export function teamServerView(team: TeamRow) {
  return { ...teamClientView(team), created_at_millis: team.createdAt, server_metadata: team.serverMetadata ?? null };
}

export function userServerView(record: UserRecord, config: ProjectConfig) {
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
    risk_scores: (user.riskScores as object | null) ?? { sign_up: { bot: 0, free_trial_abuse: 0 } },
    oauth_providers: (record.oauthProviders ?? []).map((p) => ({ id: p.providerConfigId, account_id: p.accountId, email: p.email })),
    auth_with_email: Boolean(primaryEmail?.usedForAuth && user.passwordHash) || (primaryEmail?.usedForAuth ?? false),
    requires_totp_mfa: Boolean(user.totpSecret),
  };
}

export function userClientView(record: UserRecord, config: ProjectConfig) {
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

export function projectClientView(project: ProjectRow) {
  const config = readProjectConfig(project.config);
  return {
    id: project.id,
    display_name: project.displayName,
    config: {
      sign_up_enabled: config.sign_up_enabled,
      credential_enabled: config.credential_enabled,
      magic_link_enabled: config.magic_link_enabled,
      passkey_enabled: config.passkey_enabled,
      client_team_creation_enabled: config.client_team_creation_enabled,
      client_user_deletion_enabled: config.client_user_deletion_enabled,
      allow_user_api_keys: config.allow_user_api_keys,
      allow_team_api_keys: config.allow_team_api_keys,
      enabled_oauth_providers: config.oauth_providers.map(({ id }) => ({ id })),
      domains: config.domains,
    },
  };
}

export function projectAdminView(project: ProjectRow) {
  const config = readProjectConfig(project.config);
  return {
    id: project.id,
    display_name: project.displayName,
    description: project.description,
    logo_url: project.logoUrl ?? null,
    logo_full_url: project.fullLogoUrl ?? null,
    logo_dark_mode_url: null,
    logo_full_dark_mode_url: null,
    created_at_millis: project.createdAt,
    is_production_mode: project.isProductionMode,
    owner_team_id: project.ownerTeamId ?? null,
    onboarding_status: project.onboardingStatus,
    config: {
      ...config,
      oauth_providers: config.oauth_providers.map((p) => ({ provider_config_id: p.id, ...p })),
      enabled_oauth_providers: config.oauth_providers.map(({ id }) => ({ id })),
    },
  };
}

export function sessionView(row: SessionRow, currentSessionId: string | null) {
  return {
    id: row.id,
    user_id: row.userId,
    created_at: row.createdAt,
    is_impersonation: row.isImpersonation,
    last_used_at: row.lastUsedAt,
    is_current_session: row.id === currentSessionId,
    last_used_at_end_user_ip_info: (row.lastIpInfo as object | null) ?? undefined,
  };
}

type KeyValues = { publishable?: string; secret?: string; admin?: string };

/** Full key values appear only in the create response; reads show the last four characters. */
export function keySetView(row: ApiKeySetRow, full?: KeyValues) {
  const show = (value: string | undefined, lastFour: string | null) => (value ? value : lastFour ? { last_four: lastFour } : undefined);
  return {
    id: row.id,
    description: row.description,
    expires_at_millis: row.expiresAt,
    created_at_millis: row.createdAt,
    manually_revoked_at_millis: row.revokedAt ?? undefined,
    publishable_client_key: show(full?.publishable, row.publishableLastFour),
    secret_server_key: show(full?.secret, row.secretLastFour),
    super_secret_admin_key: show(full?.admin, row.adminLastFour),
  };
}

export function contactChannelView(row: import("../db/queries/contact-channels").ContactChannelRow) {
  return {
    user_id: row.userId,
    id: row.id,
    value: row.value,
    type: row.type,
    used_for_auth: row.usedForAuth,
    is_verified: row.isVerified,
    is_primary: row.isPrimary,
  };
}

/** A linked provider account (/oauth-providers); `account_id` only for server and admin callers. */
export function oauthProviderView(account: import("./oauth-providers").LinkedAccount, withAccountId: boolean) {
  const { row, type } = account;
  return {
    user_id: row.userId,
    id: row.id,
    ...(row.email ? { email: row.email } : {}),
    provider_config_id: row.providerConfigId,
    type,
    allow_sign_in: row.allowSignIn,
    allow_connected_accounts: row.allowConnectedAccounts,
    ...(withAccountId ? { account_id: row.providerAccountId } : {}),
  };
}

/** A connected account (/connected-accounts). */
export function connectedAccountView(row: import("../db/queries/oauth-accounts").OAuthAccountRow) {
  return { user_id: row.userId, provider: row.providerConfigId, provider_account_id: row.providerAccountId };
}
