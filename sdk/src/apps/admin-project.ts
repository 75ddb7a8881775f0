/** A project as its admins see it, with update and delete. Config keys are camelCase here, snake_case on the wire. */
import { camelKeys, snakeKeys } from "./case";
import type { ProjectAdminJson } from "./wire-types";

export type ProjectConfig = {
  allowLocalhost: boolean;
  signUpEnabled: boolean;
  /** Anonymous (guest) sign-up, independent of signUpEnabled. */
  anonymousSignUpEnabled: boolean;
  credentialEnabled: boolean;
  magicLinkEnabled: boolean;
  passkeyEnabled: boolean;
  clientTeamCreationEnabled: boolean;
  clientUserDeletionEnabled: boolean;
  allowUserApiKeys: boolean;
  allowTeamApiKeys: boolean;
  createTeamOnSignUp: boolean;
  requirePublishableClientKey: boolean;
  refreshTokenRotation: boolean;
  /** Doorman session policy, 0 = no limit: minutes without a refresh before a session ends (checked on refresh). */
  sessionIdleTimeoutMinutes: number;
  /** Minutes from sign-in after which a session ends, whatever its use (0 = only the session's own expiry). */
  sessionMaxLifetimeMinutes: number;
  /** Sessions a user may have at once; a new sign-in ends the oldest beyond it (0 = unlimited). */
  maxSessionsPerUser: number;
  /** Doorman: every user needs a second factor (TOTP); a user without one enrols at the next sign-in. */
  requireMfa: boolean;
  /** Doorman: while the database is away, `/users/me` answers from the access token's claims (header `x-doorman-degraded`); off: a 503. */
  degradedReadsFromToken: boolean;
  /** Users whose primary email is not verified are restricted (onboarding.requireEmailVerification) until they verify it. */
  requireEmailVerification: boolean;
  oauthAccountMergeStrategy: "link_method" | "raise_error" | "allow_duplicates";
  domains: { domain: string; handlerPath: string }[];
  /** `clientSecret` is write-only: sent on update, never read back (`hasClientSecret` says whether one is stored). */
  oauthProviders: {
    id: string;
    type: "shared" | "standard";
    clientId?: string;
    clientSecret?: string;
    readonly hasClientSecret?: boolean;
    /** Microsoft, own keys: "common" (the default), "organizations", "consumers" or a tenant GUID. */
    microsoftTenantId?: string;
    /** Facebook, own keys: a Facebook Login for Business configuration id (it replaces the scope list). */
    facebookConfigId?: string;
    /** Apple, own keys: bundle ids of native apps (kept in the config; web sign-in uses the client id). */
    appleBundleIds?: string[];
  }[];
  /** `password` is write-only: sent on update, never read back (`hasPassword` says whether one is stored). */
  emailConfig:
    | { type: "shared" }
    | {
        type: "standard";
        host: string;
        port: number;
        username: string;
        password?: string;
        readonly hasPassword?: boolean;
        senderName: string;
        senderEmail: string;
      };
  /** Doorman extension: a Turnstile secret key is stored (`doorman.protection.turnstile.secretKey`, write-only, never read back). */
  readonly hasTurnstileSecretKey?: boolean;
  [key: string]: unknown;
};

export type ProjectUpdate = {
  displayName?: string;
  description?: string;
  isProductionMode?: boolean;
  logoUrl?: string | null;
  fullLogoUrl?: string | null;
  config?: Partial<ProjectConfig>;
};

export type AdminProject = {
  readonly id: string;
  readonly displayName: string;
  readonly description: string;
  readonly createdAt: Date;
  readonly isProductionMode: boolean;
  readonly ownerTeamId: string | null;
  readonly logoUrl: string | null;
  readonly fullLogoUrl: string | null;
  readonly config: ProjectConfig;
  update(update: ProjectUpdate): Promise<void>;
  delete(): Promise<void>;
  /** The rendered config in the reference's nested form (secrets left out). */
  getConfig(): Promise<Record<string, unknown>>;
  /**
   * Merges dotted keys into a level's override (default: environment), e.g.
   * `{ "auth.passkey.allowSignIn": true }`; null resets a key to its default.
   */
  updateConfig(override: Record<string, unknown>, level?: "project" | "branch" | "environment"): Promise<void>;
  /**
   * Removes keys, and everything under them, from the branch or environment override, e.g.
   * `resetConfigOverrideKeys("environment", ["apps.installed.teams"])`; the level below shows again.
   */
  resetConfigOverrideKeys(level: "branch" | "environment", keys: string[]): Promise<void>;
  /** Where the branch override was pushed from, e.g. `{ type: "unlinked" }` (edited in the console). */
  getPushedConfigSource(): Promise<ConfigSource>;
  /** Marks the branch override as no longer pushed from anywhere; its keys stay. */
  unlinkPushedConfigSource(): Promise<void>;
};

/** Where a project's branch config was pushed from (the reference's branch config source). */
export type ConfigSource =
  | { type: "pushed-from-github"; owner: string; repo: string; branch: string; commit_hash: string; config_file_path: string }
  | { type: "pushed-from-unknown" }
  | { type: "unlinked" };

/** Minimal view of the app that can change the project (admin access). */
export type ProjectAdmin = {
  _adminRequest<T>(path: string, options?: { method?: string; body?: unknown }): Promise<T>;
};

/** A config as read may be sent back: its read-only "is a secret stored" flags are left out. */
function withoutReadOnly(config: Partial<ProjectConfig>): Partial<ProjectConfig> {
  const { hasTurnstileSecretKey: _turnstile, ...out } = config;
  if (out.oauthProviders) out.oauthProviders = out.oauthProviders.map(({ hasClientSecret: _stored, ...p }) => p);
  if (out.emailConfig?.type === "standard") {
    const { hasPassword: _stored, ...email } = out.emailConfig;
    out.emailConfig = email;
  }
  return out;
}

export function projectUpdateToWire(update: ProjectUpdate): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (update.displayName !== undefined) body.display_name = update.displayName;
  if (update.description !== undefined) body.description = update.description;
  if (update.isProductionMode !== undefined) body.is_production_mode = update.isProductionMode;
  if (update.logoUrl !== undefined) body.logo_url = update.logoUrl;
  if (update.fullLogoUrl !== undefined) body.logo_full_url = update.fullLogoUrl;
  if (update.config !== undefined) body.config = snakeKeys(withoutReadOnly(update.config));
  return body;
}

export function adminProjectFromJson(admin: ProjectAdmin, json: ProjectAdminJson): AdminProject {
  const { oauth_providers, enabled_oauth_providers, ...rest } = json.config as Record<string, unknown>;
  const config = camelKeys<ProjectConfig>(rest);
  // Wire providers carry a provider_config_id copy of id; the SDK shows id and type only once.
  config.oauthProviders = ((oauth_providers as Record<string, unknown>[] | undefined) ?? []).map(({ provider_config_id: _ignored, ...p }) =>
    camelKeys(p),
  ) as ProjectConfig["oauthProviders"];
  void enabled_oauth_providers;
  return {
    id: json.id,
    displayName: json.display_name,
    description: json.description,
    createdAt: new Date(json.created_at_millis),
    isProductionMode: json.is_production_mode,
    ownerTeamId: json.owner_team_id,
    logoUrl: json.logo_url,
    fullLogoUrl: json.logo_full_url,
    config,
    async update(update) {
      await admin._adminRequest("/internal/projects/current", { method: "PATCH", body: projectUpdateToWire(update) });
    },
    async delete() {
      await admin._adminRequest("/internal/projects/current", { method: "DELETE" });
    },
    async getConfig() {
      const res = await admin._adminRequest<{ config_string: string }>("/internal/config");
      return JSON.parse(res.config_string) as Record<string, unknown>;
    },
    async updateConfig(override, level = "environment") {
      await admin._adminRequest(`/internal/config/override/${level}`, {
        method: "PATCH",
        body: { config_override_string: JSON.stringify(override) },
      });
    },
    async resetConfigOverrideKeys(level, keys) {
      await admin._adminRequest(`/internal/config/override/${level}/reset-keys`, { method: "POST", body: { keys } });
    },
    async getPushedConfigSource() {
      return (await admin._adminRequest<{ source: ConfigSource }>("/internal/config/source")).source;
    },
    async unlinkPushedConfigSource() {
      await admin._adminRequest("/internal/config/source", { method: "DELETE" });
    },
  };
}
