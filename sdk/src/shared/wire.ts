/**
 * The wire's JSON objects (wire-protocol.md §2) as zod schemas: one set of wire types.
 * The worker's views are typed by them and its OpenAPI document is drawn from them; the SDK
 * and the React components use the inferred types (`import type`, so no zod reaches a browser
 * bundle through the SDK).
 */
import { z } from "zod";

const millis = z.number().int();
const metadata = z.unknown();

export const teamClientSchema = z.object({
  id: z.string(),
  display_name: z.string(),
  profile_image_url: z.string().nullable(),
  client_metadata: metadata,
  client_read_only_metadata: metadata,
});
export const teamServerSchema = teamClientSchema.extend({ created_at_millis: millis, server_metadata: metadata });

export const restrictedReasonSchema = z.object({
  type: z.enum(["anonymous", "restricted_by_administrator", "email_not_verified"]),
});

export const userClientSchema = z.object({
  id: z.string(),
  primary_email: z.string().nullable(),
  primary_email_verified: z.boolean(),
  display_name: z.string().nullable(),
  client_metadata: metadata,
  client_read_only_metadata: metadata,
  profile_image_url: z.string().nullable(),
  signed_up_at_millis: millis,
  has_password: z.boolean(),
  auth_with_email: z.boolean(),
  oauth_providers: z.array(z.object({ id: z.string() })),
  selected_team_id: z.string().nullable(),
  selected_team: teamClientSchema.nullable(),
  requires_totp_mfa: z.boolean(),
  otp_auth_enabled: z.boolean(),
  passkey_auth_enabled: z.boolean(),
  is_anonymous: z.boolean(),
  is_restricted: z.boolean(),
  restricted_reason: restrictedReasonSchema.nullable(),
  restricted_by_admin: z.boolean(),
  restricted_by_admin_reason: z.string().nullable(),
});

export const userServerSchema = userClientSchema.extend({
  primary_email_auth_enabled: z.boolean(),
  selected_team: teamServerSchema.nullable(),
  server_metadata: metadata,
  last_active_at_millis: millis,
  restricted_by_admin_private_details: z.string().nullable(),
  country_code: z.string().nullable(),
  risk_scores: z.object({ sign_up: z.object({ bot: z.number(), free_trial_abuse: z.number() }) }).or(z.object({})),
  oauth_providers: z.array(z.object({ id: z.string(), account_id: z.string(), email: z.string().nullable() })),
});

/** The Turnstile widget settings a client needs (GET /projects/current, `config.bot_challenge`). */
export const botChallengeClientSchema = z.object({
  site_key: z.string(),
  invisible_site_key: z.string(),
  mode: z.enum(["invisible", "managed"]),
  script_url: z.string(),
  /** The flows that always require a token (`sign_up`, `sign_in`, `otp`, `oauth`). */
  required_flows: z.array(z.enum(["sign_up", "sign_in", "otp", "oauth"])),
});
export type BotChallengeClientJson = z.infer<typeof botChallengeClientSchema>;

export const projectClientSchema = z.object({
  id: z.string(),
  display_name: z.string(),
  config: z.object({
    sign_up_enabled: z.boolean(),
    credential_enabled: z.boolean(),
    magic_link_enabled: z.boolean(),
    passkey_enabled: z.boolean(),
    client_team_creation_enabled: z.boolean(),
    client_user_deletion_enabled: z.boolean(),
    allow_user_api_keys: z.boolean(),
    allow_team_api_keys: z.boolean(),
    enabled_oauth_providers: z.array(z.object({ id: z.string() })),
    domains: z.array(z.object({ domain: z.string(), handler_path: z.string() })),
    /**
     * Doorman extension: the project's Turnstile widget (public keys only, never the secret), or null
     * when it has no site key and secret. `script_url` is the widget script the deployment serves.
     */
    bot_challenge: botChallengeClientSchema.nullable().optional(),
  }),
});

export const projectAdminSchema = z.object({
  id: z.string(),
  display_name: z.string(),
  description: z.string(),
  logo_url: z.string().nullable(),
  logo_full_url: z.string().nullable(),
  logo_dark_mode_url: z.string().nullable(),
  logo_full_dark_mode_url: z.string().nullable(),
  created_at_millis: millis,
  is_production_mode: z.boolean(),
  owner_team_id: z.string().nullable(),
  onboarding_status: z.string(),
  config: z.record(z.string(), z.unknown()),
});

export const sessionSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  created_at: millis,
  is_impersonation: z.boolean(),
  last_used_at: millis.nullable().optional(),
  is_current_session: z.boolean().optional(),
  last_used_at_end_user_ip_info: z.record(z.string(), z.unknown()).optional(),
});

const lastFourSchema = z.object({ last_four: z.string() });
const keyValueSchema = z.union([z.string(), lastFourSchema]).optional();

/** A project key set (`/internal/api-keys`): full values only in the create response. */
export const keySetSchema = z.object({
  id: z.string(),
  description: z.string(),
  expires_at_millis: millis,
  created_at_millis: millis,
  manually_revoked_at_millis: millis.optional(),
  publishable_client_key: keyValueSchema,
  secret_server_key: keyValueSchema,
  super_secret_admin_key: keyValueSchema,
});

export const contactChannelSchema = z.object({
  user_id: z.string(),
  id: z.string(),
  value: z.string(),
  type: z.string(),
  used_for_auth: z.boolean(),
  is_verified: z.boolean(),
  is_primary: z.boolean(),
});

export const oauthProviderSchema = z.object({
  user_id: z.string(),
  id: z.string(),
  email: z.string().optional(),
  provider_config_id: z.string(),
  type: z.string(),
  allow_sign_in: z.boolean(),
  allow_connected_accounts: z.boolean(),
  account_id: z.string().optional(),
});

export const connectedAccountSchema = z.object({ user_id: z.string(), provider: z.string(), provider_account_id: z.string() });

export const teamMemberProfileSchema = z.object({
  team_id: z.string(),
  user_id: z.string(),
  display_name: z.string().nullable(),
  profile_image_url: z.string().nullable(),
  user: userServerSchema.optional(),
});

export const teamInvitationSchema = z.object({
  id: z.string(),
  team_id: z.string(),
  team_display_name: z.string(),
  expires_at_millis: millis,
  recipient_email: z.string().nullable(),
});

/** Tokens answered by every sign-in. */
export const tokensSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  user_id: z.string().optional(),
  /** Doorman (issue 29): the device token to send (x-doorman-device-token) on later sign-ins. */
  device_token: z.string().optional(),
});

export const successSchema = z.object({ success: z.literal(true) });

/** A list answer: `items`, and pagination where the route pages. */
export function listSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    is_paginated: z.boolean(),
    pagination: z.object({ next_cursor: z.string().nullable() }).optional(),
  });
}

/** The body of every known error (wire §2): `x-stack-known-error` carries the same code. */
export const knownErrorBodySchema = z.object({
  code: z.string(),
  error: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});

export type TeamClientJson = z.infer<typeof teamClientSchema>;
export type TeamServerJson = z.infer<typeof teamServerSchema>;
export type UserClientJson = z.infer<typeof userClientSchema>;
export type UserServerJson = z.infer<typeof userServerSchema>;
export type ProjectClientJson = z.infer<typeof projectClientSchema>;
export type ProjectAdminJson = z.infer<typeof projectAdminSchema>;
export type SessionJson = z.infer<typeof sessionSchema>;
export type KeySetJson = z.infer<typeof keySetSchema>;
export type ContactChannelJson = z.infer<typeof contactChannelSchema>;
export type OAuthProviderJson = z.infer<typeof oauthProviderSchema>;
export type ConnectedAccountJson = z.infer<typeof connectedAccountSchema>;
export type TeamMemberProfileJson = z.infer<typeof teamMemberProfileSchema>;
export type TeamInvitationJson = z.infer<typeof teamInvitationSchema>;
export type TokensJson = z.infer<typeof tokensSchema>;
export type ListJson<T> = { items: T[]; is_paginated: boolean; pagination?: { next_cursor: string | null } };
