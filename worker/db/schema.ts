/**
 * Every D1 table, defined once (drizzle). docs/storage.md describes each table and
 * changes in the same commit as this file. Times are epoch milliseconds.
 * Secrets are never stored in clear: keys, refresh tokens and codes are SHA-256 hex.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const json = (name: string) => text(name, { mode: "json" }).$type<unknown>();
const bool = (name: string) => integer(name, { mode: "boolean" });

export const projects = sqliteTable(
  "projects",
  {
    id: text("id").primaryKey(),
    displayName: text("display_name").notNull(),
    description: text("description").notNull().default(""),
    createdAt: integer("created_at").notNull(),
    isProductionMode: bool("is_production_mode").notNull().default(false),
    logoUrl: text("logo_url"),
    fullLogoUrl: text("full_logo_url"),
    ownerTeamId: text("owner_team_id"),
    onboardingStatus: text("onboarding_status").notNull().default("completed"),
    /**
     * The flat project config (FlatProjectConfig in worker/services/project-config/flat.ts), always
     * rebuilt from `configOverrides` in the same UPDATE: read per request without rendering.
     */
    config: text("config", { mode: "json" }).notNull().$type<Record<string, unknown>>(),
    /** The config overrides by level (ConfigOverrides in worker/services/project-config/overrides.ts); null: a project from before overrides. */
    configOverrides: text("config_overrides", { mode: "json" }).$type<Record<string, Record<string, unknown>>>(),
    /**
     * Where the branch override was last pushed from (the reference's branch config source:
     * `{type: "pushed-from-github", owner, repo, …}`, `{type: "pushed-from-unknown"}`); null: unlinked.
     */
    configSource: text("config_source", { mode: "json" }).$type<Record<string, unknown>>(),
    /** Bumped by every config write; a write applies only over the version it read (no lost updates). */
    configVersion: integer("config_version").notNull().default(0),
    /** The project's connected Stripe account (Connect), once onboarding has started (issue 15). */
    stripeAccountId: text("stripe_account_id"),
  },
  // The webhook finds an event's project by its connected account.
  (t) => [index("projects_stripe_account").on(t.stripeAccountId)],
);

export const apiKeySets = sqliteTable(
  "api_key_sets",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    description: text("description").notNull().default(""),
    publishableKeyHash: text("publishable_key_hash"),
    secretKeyHash: text("secret_key_hash"),
    adminKeyHash: text("admin_key_hash"),
    publishableLastFour: text("publishable_last_four"),
    secretLastFour: text("secret_last_four"),
    adminLastFour: text("admin_last_four"),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    revokedAt: integer("revoked_at"),
  },
  (t) => [
    index("api_key_sets_project").on(t.projectId),
    index("api_key_sets_publishable").on(t.publishableKeyHash),
    index("api_key_sets_secret").on(t.secretKeyHash),
    index("api_key_sets_admin").on(t.adminKeyHash),
  ],
);

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    displayName: text("display_name"),
    profileImageUrl: text("profile_image_url"),
    passwordHash: text("password_hash"),
    signedUpAt: integer("signed_up_at").notNull(),
    lastActiveAt: integer("last_active_at").notNull(),
    clientMetadata: json("client_metadata"),
    clientReadOnlyMetadata: json("client_read_only_metadata"),
    serverMetadata: json("server_metadata"),
    selectedTeamId: text("selected_team_id"),
    isAnonymous: bool("is_anonymous").notNull().default(false),
    totpSecret: text("totp_secret"),
    /** The last TOTP time step (30 s counter) accepted for this user: a step at or before it is refused (one use per code). */
    totpLastStep: integer("totp_last_step"),
    otpAuthEnabled: bool("otp_auth_enabled").notNull().default(false),
    passkeyAuthEnabled: bool("passkey_auth_enabled").notNull().default(false),
    restrictedByAdmin: bool("restricted_by_admin").notNull().default(false),
    restrictedByAdminReason: text("restricted_by_admin_reason"),
    restrictedByAdminPrivateDetails: text("restricted_by_admin_private_details"),
    countryCode: text("country_code"),
    riskScores: json("risk_scores"),
  },
  (t) => [
    index("users_project_signed_up").on(t.projectId, t.signedUpAt, t.id),
    // Metrics (worker/db/queries/metrics.ts): recently active users, and small partial indexes that
    // count anonymous users and users per sign-in method without reading every user row.
    index("users_project_last_active").on(t.projectId, t.lastActiveAt),
    index("users_project_anonymous").on(t.projectId, t.id).where(sql`is_anonymous = 1`),
    index("users_project_password").on(t.projectId).where(sql`password_hash IS NOT NULL`),
    index("users_project_otp").on(t.projectId).where(sql`otp_auth_enabled = 1`),
  ],
);

/** Emails of users. The primary one is the user's primary_email; used_for_auth ones sign in. */
export const contactChannels = sqliteTable(
  "contact_channels",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull().default("email"),
    /** Lower-cased value. */
    value: text("value").notNull(),
    isVerified: bool("is_verified").notNull().default(false),
    isPrimary: bool("is_primary").notNull().default(false),
    usedForAuth: bool("used_for_auth").notNull().default(false),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("contact_channels_user").on(t.userId),
    uniqueIndex("contact_channels_user_value").on(t.userId, t.type, t.value),
    // One sign-in identity per email per project: enforced by the database, not by a read-then-write.
    uniqueIndex("contact_channels_auth_unique").on(t.projectId, t.type, t.value).where(sql`used_for_auth = 1`),
  ],
);

export const teams = sqliteTable(
  "teams",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    displayName: text("display_name").notNull(),
    profileImageUrl: text("profile_image_url"),
    clientMetadata: json("client_metadata"),
    clientReadOnlyMetadata: json("client_read_only_metadata"),
    serverMetadata: json("server_metadata"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("teams_project").on(t.projectId)],
);

export const teamMembers = sqliteTable(
  "team_members",
  {
    projectId: text("project_id").notNull(),
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    displayName: text("display_name"),
    profileImageUrl: text("profile_image_url"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] }), index("team_members_user").on(t.userId)],
);

/** One row per sign-in. id = the refresh_token_id claim. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    refreshTokenHash: text("refresh_token_hash").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    lastUsedAt: integer("last_used_at").notNull(),
    isImpersonation: bool("is_impersonation").notNull().default(false),
    lastIpInfo: json("last_ip_info"),
    /**
     * How the user authenticated for this session, as RFC 8176 `amr` values (e.g. ["pwd"], ["pwd","otp","mfa"]):
     * the OpenID provider's ID tokens carry it (issue 30). Null: a session from before, or one no sign-in made.
     */
    amr: text("amr", { mode: "json" }).$type<string[]>(),
    /**
     * A hash of the access-token claims the session's Durable Object last stored (services/outage/session-mirror.ts):
     * a refresh whose claims hash the same writes nothing more. Null: never mirrored (a session from before migration 0028).
     */
    mirroredClaims: text("mirrored_claims"),
  },
  (t) => [
    uniqueIndex("sessions_refresh_token").on(t.refreshTokenHash),
    index("sessions_user").on(t.userId),
    // The console's "active sessions" count per project.
    index("sessions_project_expires").on(t.projectId, t.expiresAt),
  ],
);

/**
 * Refresh tokens replaced by rotation. Presenting one after its grace window is a replay of a
 * stolen token, and revokes the whole session (ASVS 10.4.5).
 */
export const retiredRefreshTokens = sqliteTable(
  "retired_refresh_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    projectId: text("project_id").notNull(),
    retiredAt: integer("retired_at").notNull(),
  },
  (t) => [index("retired_refresh_tokens_session").on(t.sessionId)],
);

/**
 * One-time codes (email links, OTPs, password resets, email verification). Only hashes are
 * stored: `code_hash` = SHA-256 of the 45-character code, `nonce_hash` = SHA-256 of its last 39
 * characters (the nonce that OTP attempts are counted against).
 */
export const verificationCodes = sqliteTable(
  "verification_codes",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    /** What the code is for: sign_in_otp | password_reset | email_verification | team_invitation. */
    purpose: text("purpose").notNull(),
    codeHash: text("code_hash").notNull(),
    nonceHash: text("nonce_hash").notNull(),
    /** Purpose-specific data (email, user id, callback URL…), never a secret. */
    data: text("data", { mode: "json" }).notNull().$type<Record<string, unknown>>(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    attempts: integer("attempts").notNull().default(0),
  },
  (t) => [
    uniqueIndex("verification_codes_code").on(t.codeHash),
    index("verification_codes_nonce").on(t.projectId, t.nonceHash),
    // Listing by purpose (e.g. a team's pending invitations).
    index("verification_codes_purpose").on(t.projectId, t.purpose, t.expiresAt),
  ],
);

/** Every email sent or attempted, with its outcome (the dev outbox and the delivery log). */
export const sentEmails = sqliteTable(
  "sent_emails",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    to: text("to", { mode: "json" }).notNull().$type<string[]>(),
    subject: text("subject").notNull(),
    html: text("html").notNull(),
    text: text("text").notNull(),
    /** sent | failed | queued */
    status: text("status").notNull(),
    error: text("error"),
    createdAt: integer("created_at").notNull(),
    sentAt: integer("sent_at"),
  },
  (t) => [index("sent_emails_project_created").on(t.projectId, t.createdAt)],
);

/** A user's choice for one notification category (absent = the category's default). */
export const notificationPreferences = sqliteTable(
  "notification_preferences",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    categoryId: text("category_id").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.categoryId] })],
);

/**
 * Email drafts (issue 14): an owner's message in the making, TSX like a template, sent through
 * POST /emails/send-email with `draft_id`. `theme_mode` is project-default, none or custom (then
 * `theme_id` names the theme), as in the reference.
 */
export const emailDrafts = sqliteTable(
  "email_drafts",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    displayName: text("display_name").notNull(),
    tsxSource: text("tsx_source").notNull(),
    themeMode: text("theme_mode").notNull(),
    themeId: text("theme_id"),
    templateVariables: json("template_variables"),
    sentAt: integer("sent_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("email_drafts_project_updated").on(t.projectId, t.updatedAt)],
);

/**
 * A user's linked OAuth provider account (GitHub, Google, …). Provider tokens are sealed
 * (AES-GCM, key derived from SERVER_SECRET) because they must be read back to call the provider.
 */
export const oauthAccounts = sqliteTable(
  "oauth_accounts",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The project's provider config id (e.g. "github"). */
    providerConfigId: text("provider_config_id").notNull(),
    /** The account's id at the provider (the OpenID `sub`). */
    providerAccountId: text("provider_account_id").notNull(),
    email: text("email"),
    allowSignIn: bool("allow_sign_in").notNull().default(true),
    allowConnectedAccounts: bool("allow_connected_accounts").notNull().default(true),
    /** Sealed provider tokens (`v1.<iv>.<data>`), null when the provider gave none. */
    accessTokenSealed: text("access_token_sealed"),
    refreshTokenSealed: text("refresh_token_sealed"),
    accessTokenExpiresAt: integer("access_token_expires_at"),
    /** Space-separated scopes the provider granted. */
    scopes: text("scopes").notNull().default(""),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("oauth_accounts_user").on(t.userId),
    uniqueIndex("oauth_accounts_user_provider_account").on(t.userId, t.providerConfigId, t.providerAccountId),
    // One sign-in identity per provider account per project, enforced by the database.
    uniqueIndex("oauth_accounts_sign_in_unique").on(t.projectId, t.providerConfigId, t.providerAccountId).where(sql`allow_sign_in = 1`),
  ],
);

/** A user's passkey (WebAuthn credential). One per user: registering again replaces it. */
export const passkeys = sqliteTable(
  "passkeys",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** base64url credential id. */
    credentialId: text("credential_id").notNull(),
    /** base64url COSE public key. */
    publicKey: text("public_key").notNull(),
    counter: integer("counter").notNull().default(0),
    transports: text("transports", { mode: "json" }).$type<string[]>(),
    /** The WebAuthn user handle (1–64 bytes, base64url). */
    userHandle: text("user_handle").notNull(),
    createdAt: integer("created_at").notNull(),
    lastUsedAt: integer("last_used_at"),
  },
  (t) => [uniqueIndex("passkeys_user").on(t.userId), uniqueIndex("passkeys_credential").on(t.projectId, t.credentialId)],
);

/**
 * TOTP recovery codes: ten per user, each stored as a SHA-256 of (user id, code), single use
 * (`used_at` set once). A new set replaces the old; turning TOTP off deletes them.
 */
export const mfaRecoveryCodes = sqliteTable(
  "mfa_recovery_codes",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    createdAt: integer("created_at").notNull(),
    usedAt: integer("used_at"),
  },
  (t) => [uniqueIndex("mfa_recovery_codes_code").on(t.userId, t.codeHash)],
);

/** Team and project permission definitions. Ids are unique per project across both scopes. */
export const permissionDefinitions = sqliteTable(
  "permission_definitions",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    /** team | project */
    scope: text("scope").notNull(),
    description: text("description"),
    containedPermissionIds: text("contained_permission_ids", { mode: "json" }).notNull().$type<string[]>(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.id] })],
);

/** A direct grant of a team permission to a member (recursion is computed on read). */
export const teamPermissions = sqliteTable(
  "team_permissions",
  {
    projectId: text("project_id").notNull(),
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    permissionId: text("permission_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId, t.permissionId] }), index("team_permissions_user").on(t.userId)],
);

/** A direct grant of a project permission to a user. */
export const projectPermissions = sqliteTable(
  "project_permissions",
  {
    projectId: text("project_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    permissionId: text("permission_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.permissionId] })],
);

/** User and team API keys. Only the SHA-256 of the key is stored, plus its last four characters. */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    /** user | team */
    type: text("type").notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    teamId: text("team_id").references(() => teams.id, { onDelete: "cascade" }),
    description: text("description").notNull().default(""),
    isPublic: bool("is_public").notNull().default(false),
    keyHash: text("key_hash").notNull(),
    lastFour: text("last_four").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at"),
    revokedAt: integer("revoked_at"),
  },
  (t) => [
    uniqueIndex("api_keys_hash").on(t.keyHash),
    index("api_keys_user").on(t.projectId, t.userId),
    index("api_keys_team").on(t.projectId, t.teamId),
  ],
);

/**
 * Rate-limit counters: one row per (rule, hashed scope) holding the current fixed window. Counted by
 * one atomic upsert (`INSERT … ON CONFLICT DO UPDATE … RETURNING`), so a burst cannot read a stale
 * count. `bucket` = `{rule}:{sha256(project + scope)}`: no raw email or IP is stored.
 */
export const rateLimitCounters = sqliteTable(
  "rate_limit_counters",
  {
    bucket: text("bucket").primaryKey(),
    windowStart: integer("window_start").notNull(),
    count: integer("count").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("rate_limit_counters_expires").on(t.expiresAt)],
);

/**
 * One row per CLI login whose result was handed to the polling CLI. KV (where the login state
 * lives) has no compare-and-set, so the primary key here makes the hand-out happen once.
 */
export const cliHandouts = sqliteTable(
  "cli_handouts",
  {
    id: text("id").primaryKey(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("cli_handouts_expires").on(t.expiresAt)],
);

/**
 * The event log (issue 13): one row per state change, written in the same D1 batch as the change.
 * `user_id`/`team_id` are the subjects and keep no foreign key: an audit trail outlives its user.
 */
export const events = sqliteTable(
  "events",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    createdAt: integer("created_at").notNull(),
    /** user, server, admin or system */
    actorType: text("actor_type").notNull(),
    actorId: text("actor_id"),
    userId: text("user_id"),
    teamId: text("team_id"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    countryCode: text("country_code"),
    /** A small JSON payload, never a secret. */
    data: json("data"),
  },
  (t) => [
    index("events_project_time").on(t.projectId, t.createdAt, t.id),
    index("events_project_user_time").on(t.projectId, t.userId, t.createdAt),
    index("events_project_type_time").on(t.projectId, t.type, t.createdAt),
    // Metrics (worker/db/queries/metrics.ts): covering partial indexes, one row per event of their type.
    // Daily active users: a day's user.active events in time order.
    index("events_active_by_time").on(t.projectId, t.createdAt, t.userId).where(sql`type = 'user.active'`),
    // Users by country: each user's latest user.active event (and its country) without a sort.
    index("events_active_by_user").on(t.projectId, t.userId, t.createdAt, t.countryCode).where(sql`type = 'user.active'`),
    // Sign-ins by method: data.method of the window's sign_in.succeeded events without the table rows.
    index("events_sign_in_by_time").on(t.projectId, t.createdAt, t.data).where(sql`type = 'sign_in.succeeded'`),
  ],
);

/**
 * Daily active users of completed UTC days, computed once from the event log (a finished day's
 * user.active events never change) so GET /internal/metrics recounts only today and days not yet
 * counted. `anonymous_users` is the share of users anonymous when counted (subtracted unless asked for).
 */
export const dailyActiveUsers = sqliteTable(
  "daily_active_users",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    /** Whole UTC days since the epoch (epoch ms / 86,400,000). */
    day: integer("day").notNull(),
    users: integer("users").notNull(),
    anonymousUsers: integer("anonymous_users").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day] })],
);

/**
 * Webhook endpoints (issue 13): where a project's webhook events are POSTed, signed per the
 * Standard Webhooks spec. `event_types` is a JSON array of type names; empty means every type.
 * The signing secret is sealed (crypto/at-rest.ts) and shown once, at creation.
 */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    eventTypes: text("event_types", { mode: "json" }).$type<string[]>().notNull(),
    /** `whsec_<base64>`, sealed with the server secret. */
    secretSealed: text("secret_sealed").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    disabled: bool("disabled").notNull().default(false),
    disabledReason: text("disabled_reason"),
    disabledAt: integer("disabled_at"),
    /** Deliveries in a row that exhausted their retries; a success resets it (the disabling rule: docs/webhooks.md). */
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
  },
  (t) => [index("webhook_endpoints_project").on(t.projectId, t.createdAt)],
);

/**
 * One message to one endpoint: the payload as signed, its state and its retry schedule. A
 * delivery of an event exists at most once per endpoint (unique endpoint_id, event_id); test
 * events have no event row. While `status` is "sending", `next_attempt_at` is the lease's end.
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: text("event_id"),
    /** The `webhook-id` header: the same on every attempt. */
    messageId: text("message_id").notNull(),
    type: text("type").notNull(),
    /** The exact JSON body sent (and signed). */
    payload: text("payload").notNull(),
    /** pending | sending | succeeded | failed */
    status: text("status").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_endpoint_event").on(t.endpointId, t.eventId),
    index("webhook_deliveries_project_time").on(t.projectId, t.createdAt, t.id),
    index("webhook_deliveries_endpoint_time").on(t.endpointId, t.createdAt),
    index("webhook_deliveries_status_next").on(t.status, t.nextAttemptAt),
  ],
);

/** Each HTTP attempt of a delivery: status code, latency, a truncated response excerpt, or the network error. */
export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    id: text("id").primaryKey(),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attemptedAt: integer("attempted_at").notNull(),
    statusCode: integer("status_code"),
    latencyMs: integer("latency_ms").notNull(),
    responseExcerpt: text("response_excerpt"),
    error: text("error"),
  },
  (t) => [index("webhook_attempts_delivery").on(t.deliveryId, t.attemptedAt)],
);

/**
 * Item quantities (issue 15) are a ledger: every change is a row, never one mutable number. The
 * quantity is the sum of unexpired rows plus the grants of the item's default and of active
 * purchases (computed by time, not stored). A decrease is split over the grants it uses, soonest
 * expiring first, and carries their expiry, so an expired grant takes its own spending with it.
 * `seq` orders the ledger: a strict decrease inserts only if no other change landed since it read.
 */
export const itemQuantityChanges = sqliteTable(
  "item_quantity_changes",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    /** One change (one request) may be several rows, split over grants: they share this id. */
    changeId: text("change_id").notNull(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    customerType: text("customer_type").notNull(),
    customerId: text("customer_id").notNull(),
    itemId: text("item_id").notNull(),
    delta: integer("delta").notNull(),
    expiresAt: integer("expires_at"),
    /**
     * A decrease spent from a computed grant that may end early (a purchase's items that expire
     * with it, or a repeat's current grant): the grant's key. The row counts only while that grant does.
     */
    grantKey: text("grant_key"),
    description: text("description"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("item_quantity_changes_customer_item").on(t.projectId, t.customerType, t.customerId, t.itemId, t.seq)],
);

/** A purchase or subscription of an offer by a customer: from the test checkout, Stripe, or a server grant. */
export const purchases = sqliteTable(
  "purchases",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    customerType: text("customer_type").notNull(),
    customerId: text("customer_id").notNull(),
    /** null: an inline offer (server calls only). */
    offerId: text("offer_id"),
    /** The offer as it was when bought (an owner editing the offer later changes no past purchase). */
    offer: json("offer").notNull(),
    priceId: text("price_id"),
    quantity: integer("quantity").notNull(),
    kind: text("kind").notNull(),
    status: text("status").notNull(),
    source: text("source").notNull(),
    /** The payment's id outside Doorman (Stripe checkout session or subscription): one purchase per id. */
    externalId: text("external_id"),
    stripeSubscriptionId: text("stripe_subscription_id"),
    stripePaymentIntentId: text("stripe_payment_intent_id"),
    createdAt: integer("created_at").notNull(),
    currentPeriodEnd: integer("current_period_end"),
    cancelAtPeriodEnd: bool("cancel_at_period_end").notNull().default(false),
    endedAt: integer("ended_at"),
    /** How many of `quantity` a refund took back (internal/payments/transactions/refund): they grant nothing. */
    refundedQuantity: integer("refunded_quantity").notNull().default(0),
  },
  (t) => [
    index("purchases_customer").on(t.projectId, t.customerType, t.customerId, t.createdAt),
    uniqueIndex("purchases_external_id").on(t.projectId, t.externalId),
    index("purchases_stripe_subscription").on(t.stripeSubscriptionId),
  ],
);

/**
 * A refund an owner made from the console (`POST /internal/payments/transactions/refund`): at most one
 * per purchase (the unique purchase id is the "already refunded" check), with the quantity it took
 * back and the money returned (USD minor units; Stripe's refund id when Stripe returned it).
 */
export const paymentRefunds = sqliteTable(
  "payment_refunds",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    purchaseId: text("purchase_id").notNull(),
    quantity: integer("quantity").notNull(),
    amountUsdCents: integer("amount_usd_cents").notNull(),
    stripeRefundId: text("stripe_refund_id"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("payment_refunds_purchase").on(t.projectId, t.purchaseId),
    index("payment_refunds_created").on(t.projectId, t.createdAt),
  ],
);

/**
 * A Stripe invoice of a connected account's subscription, as its webhooks told it: the renewals in
 * the transactions list and the customer's invoices (`GET /payments/invoices/…`). One row per invoice id.
 */
export const stripeInvoices = sqliteTable(
  "stripe_invoices",
  {
    id: text("id").notNull(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    customerType: text("customer_type").notNull(),
    customerId: text("customer_id").notNull(),
    stripeSubscriptionId: text("stripe_subscription_id"),
    /** The subscription's first invoice (billing_reason subscription_create): part of the purchase, not a renewal. */
    isCreation: bool("is_creation").notNull().default(false),
    status: text("status"),
    amountTotal: integer("amount_total"),
    currency: text("currency"),
    hostedInvoiceUrl: text("hosted_invoice_url"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    index("stripe_invoices_customer").on(t.projectId, t.customerType, t.customerId, t.createdAt),
    index("stripe_invoices_project").on(t.projectId, t.createdAt),
  ],
);

/** A purchase URL's code (24 h, single purchase): stored as its SHA-256, like every code. */
export const purchaseCodes = sqliteTable("purchase_codes", {
  codeHash: text("code_hash").primaryKey(),
  projectId: text("project_id")
    .notNull()
    .references(() => projects.id, { onDelete: "cascade" }),
  customerType: text("customer_type").notNull(),
  customerId: text("customer_id").notNull(),
  offerId: text("offer_id"),
  offer: json("offer").notNull(),
  returnUrl: text("return_url"),
  createdAt: integer("created_at").notNull(),
  expiresAt: integer("expires_at").notNull(),
  /** Set by the purchase that used it: a code buys once. */
  usedAt: integer("used_at"),
  purchaseId: text("purchase_id"),
});

/** Stripe webhook events already handled, by event id: a redelivered event changes nothing. */
export const stripeEvents = sqliteTable("stripe_events", {
  eventId: text("event_id").primaryKey(),
  projectId: text("project_id"),
  type: text("type").notNull(),
  receivedAt: integer("received_at").notNull(),
});

/**
 * The console assistant's threads (issue 17): one row per message, in order. A thread is keyed by
 * (project, owner, thread id): `owner_key` is the owner's user id, or "admin-key" for the admin key,
 * so an owner never reads another's thread and no project reads another's.
 */
export const aiChatMessages = sqliteTable(
  "ai_chat_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    ownerKey: text("owner_key").notNull(),
    threadId: text("thread_id").notNull(),
    /** The message as saved: `{ role, content }` (the reference stores what PATCH sends). */
    message: json("message").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("ai_chat_messages_thread").on(t.projectId, t.ownerKey, t.threadId, t.id)],
);

/** The assistant's model use per project and UTC day, counted by an atomic upsert per reply. */
export const aiUsage = sqliteTable(
  "ai_usage",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    /** The UTC day, YYYY-MM-DD. */
    day: text("day").notNull(),
    requests: integer("requests").notNull().default(0),
    promptTokens: integer("prompt_tokens").notNull().default(0),
    completionTokens: integer("completion_tokens").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day] })],
);

/**
 * The email outbox (issue 24, as the reference's EmailOutbox): every email Doorman sends is first a
 * row here, written with its cause; the email queue's consumer renders and sends it. `status` is
 * one of sdk/src/shared/wire-email-outbox.ts's statuses; transitions are compare-and-set on it.
 * Built-in emails (`builtInKind` set) keep no TSX: they render the project's template of that kind
 * when sent. Their variables that carry a code or secret link are sealed (`secretVariables`,
 * AES-GCM as config secrets) and dropped once the email is sent, failed or skipped. The stored
 * subject/html/text are the redacted copy, as in the email log.
 */
export const emailOutbox = sqliteTable(
  "email_outbox",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    /** programmatic-call | draft */
    createdWith: text("created_with").notNull(),
    /** A built-in email's kind (email_verification, password_reset, …); null for send-email. */
    builtInKind: text("built_in_kind"),
    /**
     * A built-in email's locale (en, de, pt-BR, …), picked from the Accept-Language of the request
     * that caused it; null = the project's default email locale when it is sent.
     */
    locale: text("locale"),
    templateId: text("template_id"),
    draftId: text("draft_id"),
    /** Groups the rows of one send-email call. */
    sendId: text("send_id"),
    tsxSource: text("tsx_source"),
    /** A theme id, false (no theme) or null (the template's or project's choice). */
    themeChoice: json("theme_choice"),
    /** The recipient as on the wire: user-primary-email, user-custom-emails or custom-emails. */
    recipient: json("recipient").notNull(),
    variables: json("variables").notNull(),
    secretVariables: text("secret_variables"),
    subjectOverride: text("subject_override"),
    categoryId: text("category_id"),
    /** The API origin of the request (unsubscribe links are built on it). */
    apiUrl: text("api_url").notNull(),
    status: text("status").notNull(),
    isPaused: bool("is_paused").notNull().default(false),
    scheduledAt: integer("scheduled_at").notNull(),
    sendRetries: integer("send_retries").notNull().default(0),
    nextSendRetryAt: integer("next_send_retry_at"),
    sendAttemptErrors: json("send_attempt_errors"),
    startedRenderingAt: integer("started_rendering_at"),
    renderedAt: integer("rendered_at"),
    renderError: text("render_error"),
    renderFallbackError: text("render_fallback_error"),
    subject: text("subject"),
    html: text("html"),
    text: text("text"),
    isTransactional: bool("is_transactional"),
    notificationCategoryId: text("notification_category_id"),
    startedSendingAt: integer("started_sending_at"),
    finishedSendingAt: integer("finished_sending_at"),
    serverError: text("server_error"),
    skippedReason: text("skipped_reason"),
    skippedDetails: json("skipped_details"),
  },
  (t) => [
    index("email_outbox_project_created").on(t.projectId, t.createdAt, t.id),
    index("email_outbox_status_due").on(t.status, t.scheduledAt),
  ],
);

/**
 * Data vault entries: one value per (project, store, key). `keyHash` is the SHA-256 hex of the
 * client's hashed key; `valueSealed` is sealed with the server secret, bound to project, store and key.
 * `valueBytes` (the sealed length) sits before the value, so the project's total is read without it.
 */
export const dataVaultEntries = sqliteTable(
  "data_vault_entries",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    storeId: text("store_id").notNull(),
    keyHash: text("key_hash").notNull(),
    valueBytes: integer("value_bytes").notNull(),
    valueSealed: text("value_sealed").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.storeId, t.keyHash] }),
    index("data_vault_entries_project_bytes").on(t.projectId, t.valueBytes),
  ],
);

/**
 * Sign-up rule triggers: how many sign-ups each rule matched, per project, rule, action and UTC hour
 * (the reference reads them from its analytics events). Counted by one atomic upsert per trigger.
 */
export const signUpRuleTriggers = sqliteTable(
  "sign_up_rule_triggers",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    ruleId: text("rule_id").notNull(),
    action: text("action").notNull(),
    hourStart: integer("hour_start").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.ruleId, t.action, t.hourStart] })],
);

/**
 * Custom domains of the hosted pages (issue 28): the hostname (lower case, no port) is the key, so a
 * hostname belongs to exactly one project; a project maps at most one. The web app finds the project
 * of a request by its Host here, and a project's redirect URLs on its own hostname are trusted.
 */
export const projectCustomDomains = sqliteTable("project_custom_domains", {
  hostname: text("hostname").primaryKey(),
  projectId: text("project_id")
    .notNull()
    .unique()
    .references(() => projects.id, { onDelete: "cascade" }),
  createdAt: integer("created_at").notNull(),
});

/**
 * The devices a user signed in from (issue 29, new-device verification): one row per (project, user,
 * device). A device is the SHA-256 of its long-lived device token (the raw token never stored) plus its
 * user-agent family ("Chrome/macOS"); the last country and coordinates feed the risk signals (new
 * country, impossible travel).
 */
export const knownDevices = sqliteTable(
  "known_devices",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    deviceHash: text("device_hash").notNull(),
    uaFamily: text("ua_family").notNull(),
    firstSeenAt: integer("first_seen_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
    lastCountryCode: text("last_country_code"),
    lastLatitude: real("last_latitude"),
    lastLongitude: real("last_longitude"),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.userId, t.deviceHash] }),
    index("known_devices_user_seen_idx").on(t.projectId, t.userId, t.lastSeenAt),
  ],
);

/* ---------------------------------------------------------------------------------------------
 * The OpenID provider (issue 30): every project is an OAuth 2.1 / OIDC authorization server for
 * third-party apps and MCP clients. Codes, client secrets and refresh tokens are SHA-256 hex.
 * ------------------------------------------------------------------------------------------- */

/**
 * A third-party app (an OAuth client of the project). `source`: "console" (an owner registered it),
 * "dynamic" (RFC 7591 registration) or "metadata_document" (CIMD: the client id is an https URL whose
 * JSON document was fetched; the row is a cache of it until `metadataExpiresAt`).
 */
export const oauthClients = sqliteTable(
  "oauth_clients",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    clientId: text("client_id").notNull(),
    source: text("source").notNull().$type<"console" | "dynamic" | "metadata_document">(),
    name: text("name").notNull(),
    /** "confidential" (authenticates at the token endpoint) or "public" (PKCE only, auth method "none"). */
    clientType: text("client_type").notNull().$type<"confidential" | "public">(),
    /** client_secret_basic | client_secret_post | private_key_jwt | none. */
    tokenEndpointAuthMethod: text("token_endpoint_auth_method").notNull(),
    /** SHA-256 hex of the client secret (shown once); null for public and private_key_jwt clients. */
    secretHash: text("secret_hash"),
    /** The secret's first characters, to tell secrets apart in the console. */
    secretPrefix: text("secret_prefix"),
    redirectUris: text("redirect_uris", { mode: "json" }).notNull().$type<string[]>(),
    /** Scopes the client may ask for; null = every scope the project offers. */
    allowedScopes: text("allowed_scopes", { mode: "json" }).$type<string[] | null>(),
    logoUri: text("logo_uri"),
    clientUri: text("client_uri"),
    policyUri: text("policy_uri"),
    tosUri: text("tos_uri"),
    /** private_key_jwt: the client's public keys (a JWKS) or where to fetch them. */
    jwks: text("jwks", { mode: "json" }).$type<{ keys: Record<string, unknown>[] } | null>(),
    jwksUri: text("jwks_uri"),
    /** CIMD: when the cached document must be fetched again. */
    metadataExpiresAt: integer("metadata_expires_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.clientId] })],
);

/**
 * One authorization request, from GET /authorize to its code's redemption. status: "pending" (waiting
 * on the consent page), "approved" (a code was issued: `codeHash`), "redeemed" (the code was exchanged:
 * `grantId`), "denied". A code presented again after "redeemed" revokes the grant it made (RFC 9700 §4.5).
 */
export const oauthAuthorizationRequests = sqliteTable(
  "oauth_authorization_requests",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    clientId: text("client_id").notNull(),
    redirectUri: text("redirect_uri").notNull(),
    /** Space-separated, as validated (only scopes the client may ask for). */
    scope: text("scope").notNull(),
    state: text("state"),
    nonce: text("nonce"),
    codeChallenge: text("code_challenge").notNull(),
    /** RFC 8707 resource indicator: the token's audience (null = the issuer's own userinfo). */
    resource: text("resource"),
    /** OIDC prompt values (space-separated) and max_age, for the consent page. */
    prompt: text("prompt"),
    maxAge: integer("max_age"),
    /** The client asked for a team-scoped token (scope "team" or team=required). */
    teamRequested: bool("team_requested").notNull().default(false),
    status: text("status").notNull().$type<"pending" | "approved" | "redeemed" | "denied">(),
    userId: text("user_id"),
    teamId: text("team_id"),
    /** From the approving session: auth_time (ms), amr and acr for the ID token. */
    authTime: integer("auth_time"),
    amr: text("amr", { mode: "json" }).$type<string[] | null>(),
    acr: text("acr"),
    codeHash: text("code_hash"),
    grantId: text("grant_id"),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [uniqueIndex("oauth_authorization_requests_code").on(t.codeHash), index("oauth_authorization_requests_expires").on(t.expiresAt)],
);

/**
 * What a user let an app do: one row per (user, client). The consent page is skipped when a request's
 * scopes (and team) are within it, unless the app asks for prompt=consent.
 */
export const oauthConsents = sqliteTable(
  "oauth_consents",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    clientId: text("client_id").notNull(),
    /** Space-separated, sorted. */
    scope: text("scope").notNull(),
    teamId: text("team_id"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId, t.clientId] })],
);

/**
 * One grant = one redeemed authorization code and the tokens it led to (the refresh-token family).
 * Access tokens carry its id (`grant_id`), so introspection sees a revocation at once.
 */
export const oauthGrants = sqliteTable(
  "oauth_grants",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    clientId: text("client_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    teamId: text("team_id"),
    scope: text("scope").notNull(),
    resource: text("resource"),
    authTime: integer("auth_time").notNull(),
    amr: text("amr", { mode: "json" }).$type<string[] | null>(),
    acr: text("acr"),
    createdAt: integer("created_at").notNull(),
    lastUsedAt: integer("last_used_at").notNull(),
    /** The refresh tokens' end (null: offline_access was not granted, so no refresh token). */
    expiresAt: integer("expires_at"),
    revokedAt: integer("revoked_at"),
    /** Why: "user" | "client" | "reuse" | "code_reuse" | "admin". */
    revokedReason: text("revoked_reason"),
  },
  (t) => [index("oauth_grants_user_client").on(t.projectId, t.userId, t.clientId)],
);

/**
 * Refresh tokens of a grant, kept after use: one used again is a replay (rotation with reuse
 * detection), and revokes the whole grant.
 */
export const oauthRefreshTokens = sqliteTable(
  "oauth_refresh_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    grantId: text("grant_id")
      .notNull()
      .references(() => oauthGrants.id, { onDelete: "cascade" }),
    projectId: text("project_id").notNull(),
    createdAt: integer("created_at").notNull(),
    /** Set when the token was exchanged for a new one. */
    usedAt: integer("used_at"),
  },
  (t) => [index("oauth_refresh_tokens_grant").on(t.grantId)],
);

/**
 * Client assertions (RFC 7523 private_key_jwt) already used at the token, introspection or revocation
 * endpoints: a jti is single use per client. Inserted with ON CONFLICT DO NOTHING, so of two requests
 * with one assertion exactly one gets the row (never a KV read-modify-write). Kept until the
 * assertion's own exp (after that the assertion is refused by its exp anyway); the daily cron deletes them.
 */
export const oauthClientAssertionJtis = sqliteTable(
  "oauth_client_assertion_jtis",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    clientId: text("client_id").notNull(),
    jti: text("jti").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.clientId, t.jti] }), index("oauth_client_assertion_jtis_expires").on(t.expiresAt)],
);

/* ---------------------------------------------------------------------------------------------
 * Enterprise SSO (issue 31): a team's own identity provider (SAML 2.0 or OpenID Connect), the email
 * domains it has proven it owns, and SCIM 2.0 provisioning from that provider.
 * ------------------------------------------------------------------------------------------- */

/**
 * One identity provider of a team. `protocol` "saml" | "oidc"; `config` holds the protocol's settings
 * (services/sso/connection-config.ts: IdP entity id, SSO URL, certificates, attribute mapping, clock
 * skew; or issuer, client id, the client secret SEALED, scopes). The SAML SP key pair (for encrypted
 * assertions and signed AuthnRequests) is generated per connection: the private key is sealed, the
 * self-signed certificate is public (it is in the SP metadata). SCIM: `scimTokenHash` is SHA-256 of the
 * `dmscim_…` bearer token (shown once); `scimGroupMapping` maps an IdP group's displayName to team
 * permission ids. Updates are a compare-and-set on `updatedAt`.
 */
export const ssoConnections = sqliteTable(
  "sso_connections",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    protocol: text("protocol").notNull().$type<"saml" | "oidc">(),
    displayName: text("display_name").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    config: text("config", { mode: "json" }).notNull().$type<Record<string, unknown>>(),
    spPrivateKeySealed: text("sp_private_key_sealed"),
    spCertificate: text("sp_certificate"),
    /** SAML: accept unsolicited responses (IdP-initiated login); they are verified, then bounced into an SP-initiated flow. */
    allowIdpInitiated: integer("allow_idp_initiated", { mode: "boolean" }).notNull().default(false),
    scimTokenHash: text("scim_token_hash"),
    scimTokenPrefix: text("scim_token_prefix"),
    scimGroupMapping: text("scim_group_mapping", { mode: "json" }).notNull().$type<Record<string, string[]>>().default({}),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("sso_connections_team").on(t.projectId, t.teamId), uniqueIndex("sso_connections_scim_token").on(t.scimTokenHash)],
);

/**
 * An email domain a team claims. `status`: "pending" (the TXT record `_doorman-verification.{domain}`
 * = `doorman-verification={verificationToken}` not seen yet), "verified", "lost" (it was verified,
 * and a later check no longer found the record). Only a verified domain routes sign-in, enforces SSO
 * (`enforceSso`: other sign-in methods are refused for its emails) or auto-joins (`autoJoin`: the
 * first SSO sign-in adds the user to the team with its default permissions). `connectionId` picks
 * the team's connection for its emails (null: the team's first enabled one). A domain is verified for
 * at most one team of a project (the partial unique index): pending claims never block another team.
 */
export const ssoDomains = sqliteTable(
  "sso_domains",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    connectionId: text("connection_id").references(() => ssoConnections.id, { onDelete: "set null" }),
    domain: text("domain").notNull(),
    verificationToken: text("verification_token").notNull(),
    status: text("status").notNull().$type<"pending" | "verified" | "lost">(),
    verifiedAt: integer("verified_at"),
    checkedAt: integer("checked_at"),
    enforceSso: integer("enforce_sso", { mode: "boolean" }).notNull().default(false),
    autoJoin: integer("auto_join", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("sso_domains_team_domain").on(t.teamId, t.domain),
    uniqueIndex("sso_domains_verified").on(t.projectId, t.domain).where(sql`status = 'verified'`),
  ],
);

/**
 * A user as a connection knows them: made by the first SSO sign-in or by SCIM provisioning. Its id is
 * the SCIM User resource id. `subject` is the SAML NameID or OIDC `sub` (null until the first sign-in
 * of a SCIM-provisioned user, who is then matched by `userName`/email). `active` false = deprovisioned:
 * sign-in through the connection is refused. `scimResource` is the SCIM resource as last written (its
 * attributes, answered back on GET). `version` is the ETag (W/"{version}") and the compare-and-set of
 * every SCIM write.
 */
export const ssoIdentities = sqliteTable(
  "sso_identities",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    connectionId: text("connection_id")
      .notNull()
      .references(() => ssoConnections.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    subject: text("subject"),
    userName: text("user_name"),
    externalId: text("external_id"),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    scimResource: text("scim_resource", { mode: "json" }).$type<Record<string, unknown> | null>(),
    version: integer("version").notNull().default(1),
    lastSignInAt: integer("last_sign_in_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("sso_identities_subject").on(t.connectionId, t.subject),
    uniqueIndex("sso_identities_user_name").on(t.connectionId, t.userName),
    uniqueIndex("sso_identities_user").on(t.connectionId, t.userId),
    index("sso_identities_external_id").on(t.connectionId, t.externalId),
  ],
);

/**
 * SAML assertion ids already consumed, per connection: an assertion works once (replay protection).
 * Inserted with ON CONFLICT DO NOTHING, so of two posts of one assertion exactly one wins; kept until
 * the assertion's NotOnOrAfter (plus the clock skew), then deleted by the daily cron.
 */
export const samlUsedAssertions = sqliteTable(
  "saml_used_assertions",
  {
    connectionId: text("connection_id")
      .notNull()
      .references(() => ssoConnections.id, { onDelete: "cascade" }),
    assertionId: text("assertion_id").notNull(),
    projectId: text("project_id").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.connectionId, t.assertionId] }), index("saml_used_assertions_expires").on(t.expiresAt)],
);

/** A SCIM Group of a connection. Membership maps to team permissions through the connection's `scimGroupMapping`. */
export const scimGroups = sqliteTable(
  "scim_groups",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    connectionId: text("connection_id")
      .notNull()
      .references(() => ssoConnections.id, { onDelete: "cascade" }),
    displayName: text("display_name").notNull(),
    externalId: text("external_id"),
    version: integer("version").notNull().default(1),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("scim_groups_display_name").on(t.connectionId, t.displayName)],
);

/** A member of a SCIM Group (a connection's identity). The primary key makes a repeated add a no-op. */
export const scimGroupMembers = sqliteTable(
  "scim_group_members",
  {
    groupId: text("group_id")
      .notNull()
      .references(() => scimGroups.id, { onDelete: "cascade" }),
    identityId: text("identity_id")
      .notNull()
      .references(() => ssoIdentities.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.identityId] }), index("scim_group_members_identity").on(t.identityId)],
);
