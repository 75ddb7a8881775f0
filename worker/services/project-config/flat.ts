/**
 * The flat project config (FlatProjectConfig): defaults, the zod schema of its wire form
 * (snake_case, as stored in projects.config and read by every request), and the domain and
 * production-mode rules of SPEC.md §5. It is derived from the override levels through the
 * rendered config (overrides.ts draws the three shapes).
 */

import {
  domainError,
  domainHost,
  isLocalhostHost,
  isValidDomainHost,
  productionModeErrors as sharedProductionModeErrors,
} from "@doorman/shared/domain-rules";
import { RATE_LIMIT_RULE_NAMES, RATE_LIMIT_VALUE } from "@doorman/shared/rate-limit-rules";
import { z } from "zod";
import { DEFAULT_EMAIL_THEME_ID } from "../email/defaults";

export const oauthProviderSchema = z.strictObject({
  id: z.string().min(1).max(64),
  type: z.enum(["shared", "standard"]),
  client_id: z.string().max(512).optional(),
  client_secret: z.string().min(1, "must not be empty").max(1024).optional(),
  facebook_config_id: z.string().max(256).optional(),
  microsoft_tenant_id: z.string().max(256).optional(),
  apple_bundle_ids: z.array(z.string().max(256)).optional(),
});

// A trusted domain with another scheme (javascript:, custom app schemes) is refused as the wire does;
// a value without any scheme keeps the spec's "Trusted domain is not a valid URL" answer.
const domainValue = z
  .string()
  .min(1)
  .max(512)
  .refine((v) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(v) || /^https?:\/\//i.test(v), "URL must start with http:// or https://");
export const domainSchema = z.strictObject({ domain: domainValue, handler_path: z.string().max(512).default("/handler") });
const permissionRef = z.strictObject({ id: z.string().min(1).max(256) });

/** A project's own SMTP server. */
export const standardEmailConfigSchema = z.strictObject({
  type: z.literal("standard"),
  host: z.string().min(1).max(512),
  port: z.number().int().min(1).max(65535),
  username: z.string().max(512),
  /** Write-only (sealed at rest, never read back); left out of an update, the stored one is kept. */
  password: z.string().max(1024).optional(),
  sender_name: z.string().max(256),
  sender_email: z.email(),
});

export const emailConfigSchema = z.discriminatedUnion("type", [z.strictObject({ type: z.literal("shared") }), standardEmailConfigSchema]);

/** The longest idle timeout or absolute lifetime a project can set: 367 days (sessions never live longer). */
export const SESSION_POLICY_MAX_MINUTES = 367 * 24 * 60;

export const flatProjectConfigSchema = z.strictObject({
  allow_localhost: z.boolean(),
  sign_up_enabled: z.boolean(),
  /** Anonymous (guest) sign-up, independent of sign_up_enabled (doorman.anonymous.allowSignIn; the reference always allows it). */
  anonymous_sign_up_enabled: z.boolean(),
  credential_enabled: z.boolean(),
  magic_link_enabled: z.boolean(),
  passkey_enabled: z.boolean(),
  client_team_creation_enabled: z.boolean(),
  client_user_deletion_enabled: z.boolean(),
  allow_user_api_keys: z.boolean(),
  allow_team_api_keys: z.boolean(),
  create_team_on_sign_up: z.boolean(),
  require_email_verification: z.boolean(),
  require_publishable_client_key: z.boolean(),
  /** Doorman: rotate refresh tokens on use, with reuse detection (off: the Stack SDK never replaces its token). */
  refresh_token_rotation: z.boolean(),
  /** Doorman: every user needs a second factor (TOTP); one without enrols at the next sign-in before getting a session. */
  require_mfa: z.boolean(),
  /** Doorman: while D1 is away, GET /users/me answers from the access token's claims (x-doorman-degraded); off: a 503. */
  degraded_reads_from_token: z.boolean(),
  oauth_account_merge_strategy: z.enum(["link_method", "raise_error", "allow_duplicates"]),
  oauth_providers: z.array(oauthProviderSchema).max(64),
  domains: z.array(domainSchema).max(256),
  email_config: emailConfigSchema,
  email_theme: z.string().max(256),
  team_creator_default_permissions: z.array(permissionRef).max(256),
  team_member_default_permissions: z.array(permissionRef).max(256),
  user_default_permissions: z.array(permissionRef).max(256),
  /** Doorman: per-rule rate-limit overrides, "count/seconds" or "0" (off); absent = the deployment's default. */
  /** Doorman: days the event log keeps events (a daily cron prunes older ones). */
  event_retention_days: z.number().int().min(1).max(3650),
  /** Doorman: session policy (0 = no limit): minutes without a refresh, minutes since sign-in, sessions per user. */
  session_idle_timeout_minutes: z.number().int().min(0).max(SESSION_POLICY_MAX_MINUTES),
  session_max_lifetime_minutes: z.number().int().min(0).max(SESSION_POLICY_MAX_MINUTES),
  max_sessions_per_user: z.number().int().min(0).max(1000),
  rate_limits: z.partialRecord(z.enum(RATE_LIMIT_RULE_NAMES), z.string().regex(RATE_LIMIT_VALUE, 'a rate limit is "count/seconds" or "0"')),
});

export type FlatProjectConfig = z.infer<typeof flatProjectConfigSchema>;

/** Partial update: every field optional. */
export const flatProjectConfigUpdateSchema = flatProjectConfigSchema.partial();
export type FlatProjectConfigUpdate = z.infer<typeof flatProjectConfigUpdateSchema>;

export function defaultProjectConfig(): FlatProjectConfig {
  return {
    allow_localhost: true,
    sign_up_enabled: true,
    anonymous_sign_up_enabled: true,
    credential_enabled: true,
    magic_link_enabled: false,
    passkey_enabled: false,
    client_team_creation_enabled: false,
    client_user_deletion_enabled: false,
    allow_user_api_keys: false,
    allow_team_api_keys: false,
    create_team_on_sign_up: false,
    require_email_verification: false,
    require_publishable_client_key: false,
    refresh_token_rotation: false,
    require_mfa: false,
    degraded_reads_from_token: false,
    oauth_account_merge_strategy: "link_method",
    oauth_providers: [],
    domains: [],
    email_config: { type: "shared" },
    email_theme: DEFAULT_EMAIL_THEME_ID,
    team_creator_default_permissions: [{ id: "team_admin" }],
    team_member_default_permissions: [{ id: "team_member" }],
    user_default_permissions: [],
    rate_limits: {},
    event_retention_days: 90,
    session_idle_timeout_minutes: 0,
    session_max_lifetime_minutes: 0,
    max_sessions_per_user: 0,
  };
}

/** Reads a stored config, filling fields added after it was written. */
export function readProjectConfig(stored: unknown): FlatProjectConfig {
  return { ...defaultProjectConfig(), ...(stored as Partial<FlatProjectConfig>) };
}

export { domainHost, isLocalhostHost, isValidDomainHost };

const domainRulesInput = (config: FlatProjectConfig) => ({ allowLocalhost: config.allow_localhost, domains: config.domains });

/** Messages for every domain that is not valid at all (any mode). */
export function domainErrors(config: FlatProjectConfig): string[] {
  return config.domains.map(({ domain }) => domainError(domain)).filter((e): e is string => e !== null);
}

/** SPEC §5 production-mode checks, with its exact messages. */
export function productionModeErrors(config: FlatProjectConfig): string[] {
  return sharedProductionModeErrors(domainRulesInput(config));
}

function hostMatches(pattern: string, host: string): boolean {
  if (!pattern.includes("*")) return pattern === host;
  const re = new RegExp(
    `^${pattern
      .split("*")
      .map((p) => p.replace(/[.+?^${}()|[\]\\-]/g, "\\$&"))
      .join("[a-z0-9-]+")}$`,
  );
  return re.test(host);
}

/**
 * Is `url` a trusted redirect/callback target? Only http(s) URLs on a trusted domain (scheme,
 * host and port must match), or on localhost when allowed: open redirects leak codes and tokens.
 */
export function isTrustedUrl(config: FlatProjectConfig, url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return false;
  if (parsed.username || parsed.password) return false;
  const host = parsed.hostname.toLowerCase();
  if (config.allow_localhost && isLocalhostHost(host)) return true;
  return config.domains.some(({ domain }) => {
    const match = /^([a-z][a-z0-9+.-]*):\/\/([^/:?#]+)(:(?:\d+|\*))?/i.exec(domain.trim());
    if (!match) return false;
    const port = match[3] ? match[3].slice(1) : "";
    const defaultPort = parsed.protocol === "https:" ? "443" : "80";
    return (
      `${match[1]!.toLowerCase()}:` === parsed.protocol &&
      hostMatches(match[2]!.toLowerCase(), host) &&
      // A `*` port (the reference's wildcard URLs) is any port; otherwise the ports must match.
      (port === "*" || (port || defaultPort) === (parsed.port || defaultPort))
    );
  });
}

/** Is `host` a host of a trusted domain (any scheme and port), or localhost when allowed? For checks that see only a hostname (Turnstile's answer). */
export function isTrustedHostname(config: FlatProjectConfig, host: string): boolean {
  const name = host.toLowerCase();
  if (config.allow_localhost && isLocalhostHost(name)) return true;
  return config.domains.some(({ domain }) => {
    const pattern = domainHost(domain);
    return pattern !== null && hostMatches(pattern, name);
  });
}
