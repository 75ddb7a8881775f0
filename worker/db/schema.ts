/**
 * Every D1 table, defined once (drizzle). docs/storage.md describes each table and
 * changes in the same commit as this file. Times are epoch milliseconds.
 * Secrets are never stored in clear: keys, refresh tokens and codes are SHA-256 hex.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const json = (name: string) => text(name, { mode: "json" }).$type<unknown>();
const bool = (name: string) => integer(name, { mode: "boolean" });

export const projects = sqliteTable("projects", {
  id: text("id").primaryKey(),
  displayName: text("display_name").notNull(),
  description: text("description").notNull().default(""),
  createdAt: integer("created_at").notNull(),
  isProductionMode: bool("is_production_mode").notNull().default(false),
  logoUrl: text("logo_url"),
  fullLogoUrl: text("full_logo_url"),
  ownerTeamId: text("owner_team_id"),
  onboardingStatus: text("onboarding_status").notNull().default("completed"),
  /** The whole project config (ProjectConfig in worker/services/project-config.ts). */
  config: text("config", { mode: "json" }).notNull().$type<Record<string, unknown>>(),
});

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
    otpAuthEnabled: bool("otp_auth_enabled").notNull().default(false),
    passkeyAuthEnabled: bool("passkey_auth_enabled").notNull().default(false),
    restrictedByAdmin: bool("restricted_by_admin").notNull().default(false),
    restrictedByAdminReason: text("restricted_by_admin_reason"),
    restrictedByAdminPrivateDetails: text("restricted_by_admin_private_details"),
    countryCode: text("country_code"),
    riskScores: json("risk_scores"),
  },
  (t) => [index("users_project_signed_up").on(t.projectId, t.signedUpAt, t.id)],
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
  },
  (t) => [uniqueIndex("sessions_refresh_token").on(t.refreshTokenHash), index("sessions_user").on(t.userId)],
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
  (t) => [uniqueIndex("verification_codes_code").on(t.codeHash), index("verification_codes_nonce").on(t.projectId, t.nonceHash)],
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
