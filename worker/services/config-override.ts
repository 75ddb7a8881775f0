/**
 * Config overrides, wire-compatible with the reference's `/internal/config/override/{level}`: an
 * override is a JSON object whose keys may be dotted paths (`"auth.passkey.allowSignIn": true`).
 * Levels apply in order (project, then branch, then environment) on top of Doorman's defaults, a
 * later key replacing everything at or under its path, and `null` removing it. The rendered
 * result is the reference's nested config; `toProjectConfig` maps it to the flat ProjectConfig
 * the rest of the worker reads, so the typed settings and the override are one source of truth.
 */

import { RATE_LIMIT_RULE_NAMES, RATE_LIMIT_VALUE } from "@doorman/shared/rate-limit-rules";
import { AI_PROVIDERS, DEFAULT_AI_TIMEOUT_MS } from "@doorman/shared/wire-ai-chat";
import { z } from "zod";
import { DEFAULT_EMAIL_TEMPLATES, DEFAULT_EMAIL_THEMES } from "./email/defaults";
import { defaultPaymentsConfig, PAYMENTS_RECORD_PATHS, paymentsConfigSchema } from "./payments/config";
import { defaultProjectConfig, type ProjectConfig, type ProjectConfigUpdate, SESSION_POLICY_MAX_MINUTES } from "./project-config";

export const CONFIG_LEVELS = ["project", "branch", "environment"] as const;
export type ConfigLevel = (typeof CONFIG_LEVELS)[number];
/** One level's override: dotted keys to values, in the order they were set. */
export type ConfigOverride = Record<string, unknown>;
export type ConfigOverrides = Partial<Record<ConfigLevel, ConfigOverride>>;
type Nested = { [key: string]: unknown };

const bool = z.boolean();
const id = z.string().min(1).max(128);
const providerSchema = z.strictObject({
  type: z.string().min(1).max(64),
  isShared: bool,
  clientId: z.string().max(512).optional(),
  clientSecret: z.string().max(2048).optional(),
  facebookConfigId: z.string().max(256).optional(),
  microsoftTenantId: z.string().max(256).optional(),
  appleBundleIds: z.record(id, z.strictObject({ bundleId: z.string().max(256) })).optional(),
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
    anonymous: z.strictObject({ allowSignIn: bool }),
    password: z.strictObject({ allowSignIn: bool }),
    otp: z.strictObject({ allowSignIn: bool }),
    passkey: z.strictObject({ allowSignIn: bool }),
    oauth: z.strictObject({
      accountMergeStrategy: z.enum(["link_method", "raise_error", "allow_duplicates"]),
      providers: z.record(id, providerSchema),
    }),
  }),
  teams: z.strictObject({ createPersonalTeamOnSignUp: bool, allowClientTeamCreation: bool }),
  users: z.strictObject({ allowClientUserDeletion: bool }),
  apiKeys: z.strictObject({ enabled: z.strictObject({ user: bool, team: bool }) }),
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
  onboarding: z.strictObject({ requireEmailVerification: bool }),
  project: z.strictObject({ requirePublishableClientKey: bool }),
  doorman: z.strictObject({
    /** Rotate refresh tokens on use, with reuse detection. */
    refreshTokenRotation: bool,
    /** Every user needs a second factor: one without enrols TOTP at the next sign-in. */
    requireMfa: bool,
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
  }),
});
export type RenderedConfig = z.infer<typeof renderedConfigSchema>;

/** Paths of secrets inside the rendered config: sealed at rest, never answered. */
const SECRET_PATHS = [/^auth\.oauth\.providers\.[^.]+\.clientSecret$/, /^emails\.server\.password$/, /^doorman\.ai\.apiKey$/];
export const isSecretPath = (path: string) => SECRET_PATHS.some((re) => re.test(path));

const set = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, true as const]));

/** The nested form of a flat ProjectConfig. */
export function toRenderedConfig(c: ProjectConfig): RenderedConfig {
  const server: RenderedConfig["emails"]["server"] =
    c.email_config.type === "shared"
      ? { isShared: true }
      : {
          isShared: false,
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
      anonymous: { allowSignIn: c.anonymous_sign_up_enabled },
      password: { allowSignIn: c.credential_enabled },
      otp: { allowSignIn: c.magic_link_enabled },
      passkey: { allowSignIn: c.passkey_enabled },
      oauth: { accountMergeStrategy: c.oauth_account_merge_strategy, providers: providersToRendered(c.oauth_providers) },
    },
    teams: { createPersonalTeamOnSignUp: c.create_team_on_sign_up, allowClientTeamCreation: c.client_team_creation_enabled },
    users: { allowClientUserDeletion: c.client_user_deletion_enabled },
    apiKeys: { enabled: { user: c.allow_user_api_keys, team: c.allow_team_api_keys } },
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
    onboarding: { requireEmailVerification: c.require_email_verification },
    project: { requirePublishableClientKey: c.require_publishable_client_key },
    doorman: {
      refreshTokenRotation: c.refresh_token_rotation,
      requireMfa: c.require_mfa,
      rateLimits: c.rate_limits,
      eventRetentionDays: c.event_retention_days,
      sessions: {
        idleTimeoutMinutes: c.session_idle_timeout_minutes,
        maxLifetimeMinutes: c.session_max_lifetime_minutes,
        maxPerUser: c.max_sessions_per_user,
      },
      // The assistant's provider lives only in the overrides (read through renderConfig by the assistant).
      ai: { provider: "deployment", timeoutMs: DEFAULT_AI_TIMEOUT_MS },
    },
  };
}

function providersToRendered(providers: ProjectConfig["oauth_providers"]): RenderedConfig["auth"]["oauth"]["providers"] {
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
        ...(p.apple_bundle_ids ? { appleBundleIds: Object.fromEntries(p.apple_bundle_ids.map((b, i) => [`b${i}`, { bundleId: b }])) } : {}),
        allowSignIn: true,
        allowConnectedAccounts: true,
      },
    ]),
  );
}

/** Trusted domains are a record on the wire; a list made flat gets positional ids (`domain-0`, …). */
function domainsToRendered(domains: ProjectConfig["domains"]): RenderedConfig["domains"]["trustedDomains"] {
  return Object.fromEntries(domains.map((d, i) => [`domain-${i}`, { baseUrl: d.domain, handlerPath: d.handler_path }]));
}

/** The flat ProjectConfig of a rendered config. */
export function toProjectConfig(r: RenderedConfig): ProjectConfig {
  const s = r.emails.server;
  const ids = (permissions: Record<string, true>) => Object.keys(permissions).map((id) => ({ id }));
  return {
    allow_localhost: r.domains.allowLocalhost,
    sign_up_enabled: r.auth.allowSignUp,
    anonymous_sign_up_enabled: r.auth.anonymous.allowSignIn,
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
        ...(p.appleBundleIds ? { apple_bundle_ids: Object.values(p.appleBundleIds).map((b) => b.bundleId) } : {}),
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

/**
 * The override keys a flat update stands for (the typed PATCH /internal/projects/current writes
 * through the environment level). A list field replaces its whole record, as it did before.
 */
export function flatUpdateToOverride(update: ProjectConfigUpdate): ConfigOverride {
  const full = toRenderedConfig({ ...defaultProjectConfig(), ...update } as ProjectConfig);
  const paths: Record<keyof ProjectConfig, [string, unknown]> = {
    allow_localhost: ["domains.allowLocalhost", full.domains.allowLocalhost],
    sign_up_enabled: ["auth.allowSignUp", full.auth.allowSignUp],
    anonymous_sign_up_enabled: ["auth.anonymous.allowSignIn", full.auth.anonymous.allowSignIn],
    credential_enabled: ["auth.password.allowSignIn", full.auth.password.allowSignIn],
    magic_link_enabled: ["auth.otp.allowSignIn", full.auth.otp.allowSignIn],
    passkey_enabled: ["auth.passkey.allowSignIn", full.auth.passkey.allowSignIn],
    client_team_creation_enabled: ["teams.allowClientTeamCreation", full.teams.allowClientTeamCreation],
    client_user_deletion_enabled: ["users.allowClientUserDeletion", full.users.allowClientUserDeletion],
    allow_user_api_keys: ["apiKeys.enabled.user", full.apiKeys.enabled.user],
    allow_team_api_keys: ["apiKeys.enabled.team", full.apiKeys.enabled.team],
    create_team_on_sign_up: ["teams.createPersonalTeamOnSignUp", full.teams.createPersonalTeamOnSignUp],
    require_email_verification: ["onboarding.requireEmailVerification", full.onboarding.requireEmailVerification],
    require_publishable_client_key: ["project.requirePublishableClientKey", full.project.requirePublishableClientKey],
    refresh_token_rotation: ["doorman.refreshTokenRotation", full.doorman.refreshTokenRotation],
    require_mfa: ["doorman.requireMfa", full.doorman.requireMfa],
    oauth_account_merge_strategy: ["auth.oauth.accountMergeStrategy", full.auth.oauth.accountMergeStrategy],
    oauth_providers: ["auth.oauth.providers", full.auth.oauth.providers],
    domains: ["domains.trustedDomains", full.domains.trustedDomains],
    email_config: ["emails.server", full.emails.server],
    email_theme: ["emails.selectedThemeId", full.emails.selectedThemeId],
    team_creator_default_permissions: ["rbac.defaultPermissions.teamCreator", full.rbac.defaultPermissions.teamCreator],
    team_member_default_permissions: ["rbac.defaultPermissions.teamMember", full.rbac.defaultPermissions.teamMember],
    user_default_permissions: ["rbac.defaultPermissions.signUp", full.rbac.defaultPermissions.signUp],
    rate_limits: ["doorman.rateLimits", full.doorman.rateLimits],
    event_retention_days: ["doorman.eventRetentionDays", full.doorman.eventRetentionDays],
    session_idle_timeout_minutes: ["doorman.sessions.idleTimeoutMinutes", full.doorman.sessions.idleTimeoutMinutes],
    session_max_lifetime_minutes: ["doorman.sessions.maxLifetimeMinutes", full.doorman.sessions.maxLifetimeMinutes],
    max_sessions_per_user: ["doorman.sessions.maxPerUser", full.doorman.sessions.maxPerUser],
  };
  const override: ConfigOverride = {};
  for (const key of Object.keys(update) as (keyof ProjectConfig)[]) {
    if (update[key] === undefined) continue;
    const [path, value] = paths[key];
    override[path] = value;
  }
  return override;
}

/** `base` with `patch` laid over it: a patch key drops every base key at or under its path (the reference's override()). */
export function mergeOverride(base: ConfigOverride, patch: ConfigOverride): ConfigOverride {
  const keys = Object.keys(patch);
  const kept = Object.entries(base).filter(([k]) => !keys.some((p) => k === p || k.startsWith(`${p}.`)));
  return { ...Object.fromEntries(kept), ...patch };
}

export class ConfigOverrideError extends Error {}

const UNSAFE_SEGMENTS = new Set(["__proto__", "prototype", "constructor"]);

/** Sets (or with null removes) a dotted path in a nested object, creating missing records on the way. */
function setPath(target: Nested, path: string, value: unknown): void {
  const parts = path.split(".");
  if (parts.some((p) => p === "" || UNSAFE_SEGMENTS.has(p))) throw new ConfigOverrideError(`Invalid config key: ${JSON.stringify(path)}`);
  let node = target;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (next === undefined || next === null) node[part] = {};
    else if (typeof next !== "object" || Array.isArray(next))
      throw new ConfigOverrideError(`Config key ${JSON.stringify(path)} goes into ${JSON.stringify(part)}, which is not an object.`);
    node = node[part] as Nested;
  }
  const last = parts[parts.length - 1]!;
  if (value === null) delete node[last];
  else node[last] = normalizeValue(value);
}

/** A value with any dotted keys inside it expanded too. */
function normalizeValue(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const out: Nested = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    setPath(out, k, v);
  }
  return out;
}

/** Records (id → entry): a set record replaces the default's entries instead of adding to them. */
const RECORD_PATHS = new Set([
  "auth.oauth.providers",
  "domains.trustedDomains",
  "rbac.defaultPermissions.teamCreator",
  "rbac.defaultPermissions.teamMember",
  "rbac.defaultPermissions.signUp",
  "doorman.rateLimits",
  ...PAYMENTS_RECORD_PATHS,
]);

/** Fills every key missing from `target` with the default's value (deep into objects, not into records). */
function fillDefaults(target: Nested, defaults: Nested, prefix = ""): void {
  for (const [key, value] of Object.entries(defaults)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const own = target[key];
    if (own === undefined) target[key] = structuredClone(value);
    else if (isObject(own) && isObject(value) && !RECORD_PATHS.has(path)) fillDefaults(own, value, path);
  }
}

const isObject = (v: unknown): v is Nested => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Renders the levels in order, then Doorman's defaults under whatever they left unset (a key set
 * to null at a later level is removed, so it falls back to the default, as in the reference).
 */
function applyLevels(overrides: ConfigOverrides): Nested {
  const rendered: Nested = {};
  for (const level of CONFIG_LEVELS) for (const [key, value] of Object.entries(overrides[level] ?? {})) setPath(rendered, key, value);
  fillDefaults(rendered, toRenderedConfig(defaultProjectConfig()) as unknown as Nested);
  return rendered;
}

/** Message of the first schema issue, naming the dotted path. */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const where = issue.path.join(".");
  if (issue.code === "unrecognized_keys")
    return `Unknown config key${issue.keys.length > 1 ? "s" : ""}: ${issue.keys.map((k) => (where ? `${where}.${k}` : k)).join(", ")}`;
  return `Invalid config value at ${where || "(root)"}: ${issue.message}`;
}

/** The rendered config of these levels, or the reason it is not valid. */
export function renderConfig(overrides: ConfigOverrides): { ok: true; config: RenderedConfig } | { ok: false; message: string } {
  let nested: Nested;
  try {
    nested = applyLevels(overrides);
  } catch (error) {
    if (error instanceof ConfigOverrideError) return { ok: false, message: error.message };
    throw error;
  }
  const parsed = renderedConfigSchema.safeParse(nested);
  return parsed.success ? { ok: true, config: parsed.data } : { ok: false, message: firstIssue(parsed.error) };
}

/** Parses a `config_override_string`: a JSON object, or the reason it is not one. */
export function parseOverrideString(text: string): { ok: true; override: ConfigOverride } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: "Invalid config JSON" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { ok: false, message: "A config override must be a JSON object." };
  const unsafe = unsafeKey(value);
  if (unsafe !== null) return { ok: false, message: `Invalid config key: ${JSON.stringify(unsafe)}` };
  return { ok: true, override: value as ConfigOverride };
}

/**
 * The first key, at any depth, with an empty, `__proto__`, `prototype` or `constructor` segment.
 * Why: JSON.parse keeps `__proto__` as a plain key, but copying it into an object sets that
 * object's prototype instead, so it would vanish silently; it is refused instead, anywhere.
 */
function unsafeKey(value: object, prefix = ""): string | null {
  for (const [k, v] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (k.split(".").some((p) => p === "" || UNSAFE_SEGMENTS.has(p))) return path;
    if (typeof v === "object" && v !== null && !Array.isArray(v)) {
      const inner = unsafeKey(v, path);
      if (inner !== null) return inner;
    }
  }
  return null;
}

/** Calls `fn` on every string leaf whose full dotted path is a secret; returns the override with the results. */
export async function mapSecrets(override: ConfigOverride, fn: (value: string) => Promise<string | undefined>): Promise<ConfigOverride> {
  const walk = async (path: string, value: unknown): Promise<unknown> => {
    if (typeof value === "string" && isSecretPath(path)) return fn(value);
    if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
    const out: Nested = {};
    for (const [k, v] of Object.entries(value)) {
      const mapped = await walk(`${path}.${k}`, v);
      if (mapped !== undefined) out[k] = mapped;
    }
    return out;
  };
  const out: ConfigOverride = {};
  for (const [k, v] of Object.entries(override)) {
    const mapped = await walk(k, v);
    if (mapped !== undefined) out[k] = mapped;
  }
  return out;
}

/** A rendered config or override as answered on the wire: every secret left out. */
export function withoutSecrets<T extends object>(value: T, prefix = ""): T {
  const out: Nested = {};
  for (const [k, v] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (isSecretPath(path)) continue;
    out[k] = typeof v === "object" && v !== null && !Array.isArray(v) ? withoutSecrets(v as Nested, path) : v;
  }
  return out as T;
}
