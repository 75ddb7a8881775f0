/** The wire JSON shapes the SDK reads (wire-protocol.md §2). */

export type TeamJson = {
  id: string;
  display_name: string;
  profile_image_url: string | null;
  client_metadata?: unknown;
  client_read_only_metadata?: unknown;
  server_metadata?: unknown;
  created_at_millis?: number;
};

export type UserJson = {
  id: string;
  primary_email: string | null;
  primary_email_verified: boolean;
  primary_email_auth_enabled?: boolean;
  display_name: string | null;
  profile_image_url: string | null;
  signed_up_at_millis: number;
  last_active_at_millis?: number;
  has_password: boolean;
  auth_with_email: boolean;
  otp_auth_enabled: boolean;
  passkey_auth_enabled: boolean;
  client_metadata: unknown;
  client_read_only_metadata: unknown;
  server_metadata?: unknown;
  selected_team_id: string | null;
  selected_team: TeamJson | null;
  oauth_providers: { id: string; account_id?: string; email?: string | null }[];
  requires_totp_mfa: boolean;
  is_anonymous: boolean;
  is_restricted: boolean;
  restricted_reason: { type: string } | null;
};

export type ProjectClientJson = { id: string; display_name: string; config: Record<string, unknown> };

export type ProjectAdminJson = {
  id: string;
  display_name: string;
  description: string;
  created_at_millis: number;
  is_production_mode: boolean;
  owner_team_id: string | null;
  logo_url: string | null;
  logo_full_url: string | null;
  config: Record<string, unknown>;
};

export type SessionJson = {
  id: string;
  user_id: string;
  created_at: number;
  is_impersonation: boolean;
  last_used_at?: number;
  is_current_session?: boolean;
  last_used_at_end_user_ip_info?: Record<string, unknown>;
};

export type LastFour = { last_four: string };

export type KeySetJson = {
  id: string;
  description: string;
  expires_at_millis: number;
  created_at_millis: number;
  manually_revoked_at_millis?: number;
  publishable_client_key?: string | LastFour;
  secret_server_key?: string | LastFour;
  super_secret_admin_key?: string | LastFour;
};

export type TokensJson = { access_token: string; refresh_token: string; user_id?: string };
export type ListJson<T> = { items: T[]; is_paginated: boolean; pagination?: { next_cursor: string | null } };
