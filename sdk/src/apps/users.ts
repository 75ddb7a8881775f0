/** User objects: the signed-in user (client) and users managed with the secret key (server). */
import { bytesToBase64 } from "./mfa";
import type { TeamJson, UserJson } from "./wire-types";

export type Team = {
  id: string;
  displayName: string;
  profileImageUrl: string | null;
  clientMetadata: unknown;
  clientReadOnlyMetadata: unknown;
};

export function teamFromJson(json: TeamJson): Team {
  return {
    id: json.id,
    displayName: json.display_name,
    profileImageUrl: json.profile_image_url,
    clientMetadata: json.client_metadata ?? null,
    clientReadOnlyMetadata: json.client_read_only_metadata ?? null,
  };
}

/** The read-only fields every user object has. */
export type UserFields = {
  readonly id: string;
  readonly displayName: string | null;
  readonly primaryEmail: string | null;
  readonly primaryEmailVerified: boolean;
  readonly profileImageUrl: string | null;
  readonly signedUpAt: Date;
  readonly clientMetadata: unknown;
  readonly clientReadOnlyMetadata: unknown;
  readonly hasPassword: boolean;
  readonly emailAuthEnabled: boolean;
  readonly otpAuthEnabled: boolean;
  readonly passkeyAuthEnabled: boolean;
  readonly isMultiFactorRequired: boolean;
  readonly isAnonymous: boolean;
  readonly isRestricted: boolean;
  readonly restrictedReason: { type: string } | null;
  readonly oauthProviders: { id: string }[];
  readonly selectedTeam: Team | null;
  readonly selectedTeamId: string | null;
};

export function userFieldsFromJson(json: UserJson): UserFields {
  return {
    id: json.id,
    displayName: json.display_name,
    primaryEmail: json.primary_email,
    primaryEmailVerified: json.primary_email_verified,
    profileImageUrl: json.profile_image_url,
    signedUpAt: new Date(json.signed_up_at_millis),
    clientMetadata: json.client_metadata,
    clientReadOnlyMetadata: json.client_read_only_metadata,
    hasPassword: json.has_password,
    emailAuthEnabled: json.auth_with_email,
    otpAuthEnabled: json.otp_auth_enabled,
    passkeyAuthEnabled: json.passkey_auth_enabled,
    isMultiFactorRequired: json.requires_totp_mfa,
    isAnonymous: json.is_anonymous,
    isRestricted: json.is_restricted,
    restrictedReason: json.restricted_reason,
    oauthProviders: json.oauth_providers.map(({ id }) => ({ id })),
    selectedTeam: json.selected_team ? teamFromJson(json.selected_team) : null,
    selectedTeamId: json.selected_team_id,
  };
}

export type UserUpdateOptions = {
  displayName?: string | null;
  /** Raw TOTP secret bytes to turn the second factor on; null turns it off. */
  totpMultiFactorSecret?: Uint8Array | null;
  profileImageUrl?: string | null;
  clientMetadata?: unknown;
  selectedTeamId?: string | null;
  /** Turns one-time-code (magic link) sign-in on or off for this user. */
  otpAuthEnabled?: boolean;
  /** Turns passkey sign-in on or off for this user (the passkey itself is kept). */
  passkeyAuthEnabled?: boolean;
};

export type ServerUserUpdateOptions = UserUpdateOptions & {
  clientReadOnlyMetadata?: unknown;
  serverMetadata?: unknown;
  primaryEmail?: string | null;
  primaryEmailVerified?: boolean;
  primaryEmailAuthEnabled?: boolean;
  password?: string | null;
  passwordHash?: string;
  /** Restricts the user (they can sign in but count as restricted) or lifts it. */
  restrictedByAdmin?: boolean;
  /** Shown to the user; only with `restrictedByAdmin: true`. */
  restrictedByAdminReason?: string | null;
  /** Kept for admins, never shown to the user. */
  restrictedByAdminPrivateDetails?: string | null;
};

export function userUpdateToWire(update: ServerUserUpdateOptions): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const put = (key: string, value: unknown) => {
    if (value !== undefined) body[key] = value;
  };
  put("display_name", update.displayName);
  put("profile_image_url", update.profileImageUrl);
  put("client_metadata", update.clientMetadata);
  put("selected_team_id", update.selectedTeamId);
  put("otp_auth_enabled", update.otpAuthEnabled);
  put("passkey_auth_enabled", update.passkeyAuthEnabled);
  if (update.totpMultiFactorSecret !== undefined)
    body.totp_secret_base64 = update.totpMultiFactorSecret === null ? null : bytesToBase64(update.totpMultiFactorSecret);
  put("client_read_only_metadata", update.clientReadOnlyMetadata);
  put("server_metadata", update.serverMetadata);
  put("primary_email", update.primaryEmail);
  put("primary_email_verified", update.primaryEmailVerified);
  put("primary_email_auth_enabled", update.primaryEmailAuthEnabled);
  put("password", update.password);
  put("password_hash", update.passwordHash);
  put("restricted_by_admin", update.restrictedByAdmin);
  put("restricted_by_admin_reason", update.restrictedByAdminReason);
  put("restricted_by_admin_private_details", update.restrictedByAdminPrivateDetails);
  return body;
}
