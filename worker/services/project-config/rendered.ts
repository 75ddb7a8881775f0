/**
 * The rendered config: the reference's nested, camelCase config (`auth.passkey.allowSignIn`, …) plus
 * `doorman.*` for Doorman's own settings, as `renderConfig` (overrides.ts) builds it from the override
 * levels. `toFlatProjectConfig` maps it to the FlatProjectConfig (flat.ts) the rest of the worker
 * reads per request, and `toRenderedConfig` maps back, so the typed settings and the overrides are
 * one source of truth. The picture of the three shapes is in overrides.ts.
 */

import { RATE_LIMIT_RULE_NAMES, RATE_LIMIT_VALUE } from "@doorman/shared/rate-limit-rules";
import { AI_PROVIDERS, DEFAULT_AI_TIMEOUT_MS } from "@doorman/shared/wire-ai-chat";
import { z } from "zod";
import { dataVaultConfigSchema, defaultDataVaultConfig } from "../data-vault/config";
import { DEFAULT_EMAIL_TEMPLATES, DEFAULT_EMAIL_THEMES } from "../email/defaults";
import { DEFAULT_EMAIL_LOCALE, EMAIL_LOCALES } from "../email/locale";
import { defaultOAuthProviderConfig, oauthProviderConfigSchema } from "../oauth-provider/config";
import { defaultPaymentsConfig, paymentsConfigSchema } from "../payments/config";
import { defaultProtectionConfig, protectionConfigSchema } from "../protection/config";
import {
  DEFAULT_SIGN_UP_RULES_ACTION,
  defaultSignUpRules,
  signUpRulesDefaultActionSchema,
  signUpRulesSchema,
} from "../sign-up-rules/config";
import { appsConfigSchema, defaultAppsConfig } from "./apps";
import { type FlatProjectConfig, SESSION_POLICY_MAX_MINUTES } from "./flat";

const bool = z.boolean();
const id = z.string().min(1).max(128);
const providerSchema = z.strictObject({
  type: z.string().min(1).max(64),
  /** As the reference: a provider that does not say is on the shared credentials (the branch level cannot say). */
  isShared: bool.default(true),
  clientId: z.string().max(512).optional(),
  clientSecret: z.string().max(2048).optional(),
  facebookConfigId: z.string().max(256).optional(),
  microsoftTenantId: z.string().max(256).optional(),
  /** Native Sign in with Apple: the apps' bundle ids, the audiences its ID tokens may name (the reference's key). */
  appleBundles: z.record(id, z.strictObject({ bundleId: z.string().max(256) })).optional(),
  allowSignIn: bool.optional(),
  allowConnectedAccounts: bool.optional(),
});
const permissionSet = z.record(id, z.literal(true));
/** A TSX source of a theme or template (bounded: the whole config is one D1 row). */
const tsxSource = z.string().max(100_000);
const emailTheme = z.strictObject({ displayName: z.string().min(1).max(256), tsxSource });
/** `themeId`: a theme id, false (no theme), or absent/null (the project's active theme). */
const emailTemplate = z.strictObject({
  displayName: z.string().min(1).max(256),
  tsxSource,
  themeId: z
    .union([z.string().max(128), z.literal(false)])
    .nullable()
    .optional(),
});

/** The rendered config: the reference's keys for the features Doorman has, plus `doorman.*` for its own. */
export const renderedConfigSchema = z.strictObject({
  auth: z.strictObject({
    allowSignUp: bool,
    password: z.strictObject({ allowSignIn: bool }),
    otp: z.strictObject({ allowSignIn: bool }),
    passkey: z.strictObject({ allowSignIn: bool }),
    oauth: z.strictObject({
      accountMergeStrategy: z.enum(["link_method", "raise_error", "allow_duplicates"]),
      providers: z.record(id, providerSchema),
    }),
    /** Sign-up rules and what happens when none decides (services/sign-up-rules/config.ts). */
    signUpRules: signUpRulesSchema,
    signUpRulesDefaultAction: signUpRulesDefaultActionSchema,
  }),
  teams: z.strictObject({ createPersonalTeamOnSignUp: bool, allowClientTeamCreation: bool }),
  users: z.strictObject({ allowClientUserDeletion: bool }),
  apiKeys: z.strictObject({ enabled: z.strictObject({ user: bool, team: bool }) }),
  /** Installed apps (apps.ts): dashboard switches, all off unless set. */
  apps: appsConfigSchema,
  domains: z.strictObject({
    allowLocalhost: bool,
    trustedDomains: z.record(id, z.strictObject({ baseUrl: z.string().min(1).max(512), handlerPath: z.string().max(512) })),
  }),
  emails: z.strictObject({
    selectedThemeId: z.string().max(256),
    /** Email themes and templates by id: the built-ins (services/email/defaults.ts) plus the project's own. */
    themes: z.record(id, emailTheme),
    templates: z.record(id, emailTemplate),
    server: z.strictObject({
      isShared: bool,
      /**
       * The reference's providers: "smtp", and "resend" (Resend through its SMTP server, with the same
       * fields), both sent over SMTP; "managed" (domains the reference's own Resend account manages) is not Doorman's.
       */
      provider: z.enum(["smtp", "resend", "managed"]).refine((p) => p !== "managed", {
        message: 'Doorman has no managed email provider: use "smtp" (or "resend" with Resend\'s SMTP host, port and API key)',
      }),
      host: z.string().min(1).max(512).optional(),
      port: z.number().int().min(1).max(65535).optional(),
      username: z.string().max(512).optional(),
      password: z.string().max(2048).optional(),
      senderName: z.string().max(256).optional(),
      senderEmail: z.email().optional(),
    }),
  }),
  rbac: z.strictObject({
    defaultPermissions: z.strictObject({ teamCreator: permissionSet, teamMember: permissionSet, signUp: permissionSet }),
  }),
  /** Items, offers, groups and test mode (services/payments/config.ts). */
  payments: paymentsConfigSchema,
  /** Data vault stores (services/data-vault/config.ts). */
  dataVault: dataVaultConfigSchema,
  onboarding: z.strictObject({ requireEmailVerification: bool }),
  project: z.strictObject({ requirePublishableClientKey: bool }),
  doorman: z.strictObject({
    /** Anonymous (guest) sign-up, independent of auth.allowSignUp (the reference always allows it). */
    anonymous: z.strictObject({ allowSignIn: bool }),
    /** Rotate refresh tokens on use, with reuse detection. */
    refreshTokenRotation: bool,
    /** Every user needs a second factor: one without enrols TOTP at the next sign-in. */
    requireMfa: bool,
    /** While D1 is away, /users/me answers from the access token's claims (services/outage/degraded.ts). */
    degradedReadsFromToken: bool,
    /** The locale of built-in emails whose request named no supported language (services/email/locale.ts). */
    emails: z.strictObject({ defaultLocale: z.enum(EMAIL_LOCALES) }),
    /** Days the event log keeps events. */
    eventRetentionDays: z.number().int().min(1).max(3650),
    /** Session policy (0 = no limit): idle timeout and absolute lifetime in minutes, sessions per user. */
    sessions: z.strictObject({
      idleTimeoutMinutes: z.number().int().min(0).max(SESSION_POLICY_MAX_MINUTES),
      maxLifetimeMinutes: z.number().int().min(0).max(SESSION_POLICY_MAX_MINUTES),
      maxPerUser: z.number().int().min(0).max(1000),
    }),
    /** Per-rule rate limits, "count/seconds" or "0" (off). */
    rateLimits: z.partialRecord(
      z.enum(RATE_LIMIT_RULE_NAMES),
      z.string().regex(RATE_LIMIT_VALUE, 'a rate limit is "count/seconds" or "0"'),
    ),
    /** The console assistant's model provider (sdk/src/shared/wire-ai-chat.ts); the key is a secret. */
    ai: z.strictObject({
      provider: z.enum(AI_PROVIDERS),
      // Why http(s) only: the worker sends the conversation and the key there (a javascript: or file: URL is never a provider).
      baseUrl: z
        .string()
        .url()
        .max(512)
        .refine((u) => /^https?:\/\//i.test(u), "must be an http(s) URL")
        .optional(),
      model: z.string().min(1).max(256).optional(),
      apiKey: z.string().min(1).max(4096).optional(),
      timeoutMs: z.number().int().min(100).max(120_000),
    }),
    /** Attack protection: Turnstile, breached passwords, new-device verification, risk thresholds (services/protection/config.ts). */
    protection: protectionConfigSchema,
    /** The OpenID provider for third-party apps and MCP clients (services/oauth-provider/config.ts). */
    oauthProvider: oauthProviderConfigSchema,
  }),
});
export type RenderedConfig = z.infer<typeof renderedConfigSchema>;
const set = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, true as const]));

/** The nested form of a FlatProjectConfig. */
export function toRenderedConfig(c: FlatProjectConfig): RenderedConfig {
  const server: RenderedConfig["emails"]["server"] =
    c.email_config.type === "shared"
      ? { isShared: true, provider: "smtp" }
      : {
          isShared: false,
          provider: "smtp",
          host: c.email_config.host,
          port: c.email_config.port,
          username: c.email_config.username,
          ...(c.email_config.password !== undefined ? { password: c.email_config.password } : {}),
          senderName: c.email_config.sender_name,
          senderEmail: c.email_config.sender_email,
        };
  return {
    auth: {
      allowSignUp: c.sign_up_enabled,
      password: { allowSignIn: c.credential_enabled },
      otp: { allowSignIn: c.magic_link_enabled },
      passkey: { allowSignIn: c.passkey_enabled },
      oauth: { accountMergeStrategy: c.oauth_account_merge_strategy, providers: providersToRendered(c.oauth_providers) },
      // Sign-up rules live only in the overrides (read through renderedConfigOf at sign-up).
      signUpRules: defaultSignUpRules(),
      signUpRulesDefaultAction: DEFAULT_SIGN_UP_RULES_ACTION,
    },
    teams: { createPersonalTeamOnSignUp: c.create_team_on_sign_up, allowClientTeamCreation: c.client_team_creation_enabled },
    users: { allowClientUserDeletion: c.client_user_deletion_enabled },
    apiKeys: { enabled: { user: c.allow_user_api_keys, team: c.allow_team_api_keys } },
    // Installed apps live only in the overrides: all off here.
    apps: defaultAppsConfig(),
    domains: { allowLocalhost: c.allow_localhost, trustedDomains: domainsToRendered(c.domains) },
    // Themes and templates live only in the overrides (read through renderConfig, never per request): the built-ins here.
    emails: { selectedThemeId: c.email_theme, themes: { ...DEFAULT_EMAIL_THEMES }, templates: { ...DEFAULT_EMAIL_TEMPLATES }, server },
    rbac: {
      defaultPermissions: {
        teamCreator: set(c.team_creator_default_permissions.map((p) => p.id)),
        teamMember: set(c.team_member_default_permissions.map((p) => p.id)),
        signUp: set(c.user_default_permissions.map((p) => p.id)),
      },
    },
    // Payments live only in the overrides (read through renderConfig where payments need them).
    payments: defaultPaymentsConfig(),
    // Data vault stores live only in the overrides (read through renderConfig by the vault's routes).
    dataVault: defaultDataVaultConfig(),
    onboarding: { requireEmailVerification: c.require_email_verification },
    project: { requirePublishableClientKey: c.require_publishable_client_key },
    doorman: {
      anonymous: { allowSignIn: c.anonymous_sign_up_enabled },
      refreshTokenRotation: c.refresh_token_rotation,
      requireMfa: c.require_mfa,
      degradedReadsFromToken: c.degraded_reads_from_token,
      rateLimits: c.rate_limits,
      eventRetentionDays: c.event_retention_days,
      // The default email locale lives only in the overrides (read through renderConfig where an email is rendered).
      emails: { defaultLocale: DEFAULT_EMAIL_LOCALE },
      sessions: {
        idleTimeoutMinutes: c.session_idle_timeout_minutes,
        maxLifetimeMinutes: c.session_max_lifetime_minutes,
        maxPerUser: c.max_sessions_per_user,
      },
      // The assistant's provider lives only in the overrides (read through renderConfig by the assistant).
      ai: { provider: "deployment", timeoutMs: DEFAULT_AI_TIMEOUT_MS },
      // Attack protection lives only in the overrides (read through renderedConfigOf where a flow checks it).
      protection: defaultProtectionConfig(),
      // The OpenID provider lives only in the overrides (read through renderedConfigOf where a flow checks it).
      oauthProvider: defaultOAuthProviderConfig(),
    },
  };
}

function providersToRendered(providers: FlatProjectConfig["oauth_providers"]): RenderedConfig["auth"]["oauth"]["providers"] {
  return Object.fromEntries(
    providers.map((p) => [
      p.id,
      {
        type: p.id,
        isShared: p.type === "shared",
        ...(p.client_id !== undefined ? { clientId: p.client_id } : {}),
        ...(p.client_secret !== undefined ? { clientSecret: p.client_secret } : {}),
        ...(p.facebook_config_id !== undefined ? { facebookConfigId: p.facebook_config_id } : {}),
        ...(p.microsoft_tenant_id !== undefined ? { microsoftTenantId: p.microsoft_tenant_id } : {}),
        ...(p.apple_bundle_ids ? { appleBundles: Object.fromEntries(p.apple_bundle_ids.map((b, i) => [`b${i}`, { bundleId: b }])) } : {}),
        allowSignIn: true,
        allowConnectedAccounts: true,
      },
    ]),
  );
}

/** Trusted domains are a record on the wire; a list made flat gets positional ids (`domain-0`, …). */
function domainsToRendered(domains: FlatProjectConfig["domains"]): RenderedConfig["domains"]["trustedDomains"] {
  return Object.fromEntries(domains.map((d, i) => [`domain-${i}`, { baseUrl: d.domain, handlerPath: d.handler_path }]));
}

/** The FlatProjectConfig of a rendered config. */
export function toFlatProjectConfig(r: RenderedConfig): FlatProjectConfig {
  const s = r.emails.server;
  // Sorted by id, as the wire lists a default-permission set (the rendered config holds a set).
  const ids = (permissions: Record<string, true>) =>
    Object.keys(permissions)
      .sort()
      .map((id) => ({ id }));
  return {
    allow_localhost: r.domains.allowLocalhost,
    sign_up_enabled: r.auth.allowSignUp,
    anonymous_sign_up_enabled: r.doorman.anonymous.allowSignIn,
    credential_enabled: r.auth.password.allowSignIn,
    magic_link_enabled: r.auth.otp.allowSignIn,
    passkey_enabled: r.auth.passkey.allowSignIn,
    client_team_creation_enabled: r.teams.allowClientTeamCreation,
    client_user_deletion_enabled: r.users.allowClientUserDeletion,
    allow_user_api_keys: r.apiKeys.enabled.user,
    allow_team_api_keys: r.apiKeys.enabled.team,
    create_team_on_sign_up: r.teams.createPersonalTeamOnSignUp,
    require_email_verification: r.onboarding.requireEmailVerification,
    require_publishable_client_key: r.project.requirePublishableClientKey,
    refresh_token_rotation: r.doorman.refreshTokenRotation,
    require_mfa: r.doorman.requireMfa,
    degraded_reads_from_token: r.doorman.degradedReadsFromToken,
    oauth_account_merge_strategy: r.auth.oauth.accountMergeStrategy,
    // A provider turned off for sign-in is kept in the override but not offered.
    oauth_providers: Object.values(r.auth.oauth.providers)
      .filter((p) => p.allowSignIn !== false)
      .map((p) => ({
        id: p.type,
        type: p.isShared ? ("shared" as const) : ("standard" as const),
        ...(p.clientId !== undefined ? { client_id: p.clientId } : {}),
        ...(p.clientSecret !== undefined ? { client_secret: p.clientSecret } : {}),
        ...(p.facebookConfigId !== undefined ? { facebook_config_id: p.facebookConfigId } : {}),
        ...(p.microsoftTenantId !== undefined ? { microsoft_tenant_id: p.microsoftTenantId } : {}),
        ...(p.appleBundles ? { apple_bundle_ids: Object.values(p.appleBundles).map((b) => b.bundleId) } : {}),
      })),
    domains: Object.values(r.domains.trustedDomains).map((d) => ({ domain: d.baseUrl, handler_path: d.handlerPath || "/handler" })),
    email_config: s.isShared
      ? { type: "shared" }
      : {
          type: "standard",
          host: s.host ?? "",
          port: s.port ?? 587,
          username: s.username ?? "",
          ...(s.password !== undefined ? { password: s.password } : {}),
          sender_name: s.senderName ?? "",
          sender_email: s.senderEmail ?? "",
        },
    email_theme: r.emails.selectedThemeId,
    team_creator_default_permissions: ids(r.rbac.defaultPermissions.teamCreator),
    team_member_default_permissions: ids(r.rbac.defaultPermissions.teamMember),
    user_default_permissions: ids(r.rbac.defaultPermissions.signUp),
    rate_limits: r.doorman.rateLimits,
    event_retention_days: r.doorman.eventRetentionDays,
    session_idle_timeout_minutes: r.doorman.sessions.idleTimeoutMinutes,
    session_max_lifetime_minutes: r.doorman.sessions.maxLifetimeMinutes,
    max_sessions_per_user: r.doorman.sessions.maxPerUser,
  };
}
