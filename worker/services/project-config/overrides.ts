/**
 * A project's config comes in three shapes, each with its own name:
 *
 *   ConfigOverrides   { project, branch, environment }: one ConfigOverride per OverrideLevel, each a
 *        │            JSON object whose keys may be dotted paths ("auth.passkey.allowSignIn": true),
 *        │            as written through /internal/config/override/{level} (projects.config_overrides)
 *        ▼  renderConfig (this file): the levels in order over Doorman's defaults, then validated
 *   RenderedConfig    the reference's nested camelCase config plus doorman.* (rendered.ts); kept per
 *        │            isolate by config version (cache.ts); payments, emails and the assistant read it
 *        ▼  toFlatProjectConfig (rendered.ts)
 *   FlatProjectConfig the flat snake_case wire form stored in projects.config (flat.ts): what every
 *                     request reads (readProjectConfig) and the typed PATCH /internal/projects/current writes
 *
 * Secrets inside any of them (OAuth client secrets, the SMTP password, the assistant's key) are
 * sealed at rest and never answered (secrets.ts). The SDK's camelCase `ProjectConfig`
 * (sdk/src/apps/admin-project.ts) is the admin API's view of the flat one, a separate public type.
 *
 * Overrides are wire-compatible with the reference's `/internal/config/override/{level}`. Levels
 * apply in order (project, then branch, then environment) on top of Doorman's defaults, a later key
 * replacing everything at or under its path, and `null` removing it.
 */
import type { z } from "zod";
import { PAYMENTS_RECORD_PATHS } from "../payments/config";
import { defaultProjectConfig, type FlatProjectConfig, type FlatProjectConfigUpdate } from "./flat";
import { migrateOverrideNames } from "./migrate";
import { type RenderedConfig, renderedConfigSchema, toRenderedConfig } from "./rendered";

export const OVERRIDE_LEVELS = ["project", "branch", "environment"] as const;
export type OverrideLevel = (typeof OVERRIDE_LEVELS)[number];
/** One level's override: dotted keys to values, in the order they were set. */
export type ConfigOverride = Record<string, unknown>;
export type ConfigOverrides = Partial<Record<OverrideLevel, ConfigOverride>>;
type Nested = { [key: string]: unknown };

/**
 * The override keys a flat update stands for (the typed PATCH /internal/projects/current writes
 * through the environment level). A list field replaces its whole record, as it did before.
 */
export function flatUpdateToOverride(update: FlatProjectConfigUpdate): ConfigOverride {
  const full = toRenderedConfig({ ...defaultProjectConfig(), ...update } as FlatProjectConfig);
  const paths: Record<keyof FlatProjectConfig, [string, unknown]> = {
    allow_localhost: ["domains.allowLocalhost", full.domains.allowLocalhost],
    sign_up_enabled: ["auth.allowSignUp", full.auth.allowSignUp],
    anonymous_sign_up_enabled: ["doorman.anonymous.allowSignIn", full.doorman.anonymous.allowSignIn],
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
    degraded_reads_from_token: ["doorman.degradedReadsFromToken", full.doorman.degradedReadsFromToken],
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
  for (const key of Object.keys(update) as (keyof FlatProjectConfig)[]) {
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

/** `override` without `keys` and everything under them, whether written dotted or nested (the reference's removeKeysFromConfig). */
export function removeOverrideKeys(override: ConfigOverride, keys: string[]): ConfigOverride {
  if (keys.length === 0) return override;
  const out: ConfigOverride = {};
  for (const [key, value] of Object.entries(override)) {
    if (keys.some((k) => key === k || key.startsWith(`${k}.`))) continue;
    const inner = keys.filter((k) => k.startsWith(`${key}.`)).map((k) => k.slice(key.length + 1));
    if (inner.length > 0 && isObject(value)) {
      const kept = removeOverrideKeys(value, inner);
      if (Object.keys(kept).length > 0) out[key] = kept;
    } else out[key] = value;
  }
  return out;
}

export class ConfigOverrideError extends Error {}

const UNSAFE_SEGMENTS = new Set(["__proto__", "prototype", "constructor"]);

/**
 * Sets (or with null removes) a dotted path in a nested object, creating missing objects on the way.
 * With `defaults` (rendering): a path through a record entry that neither the levels so far nor the
 * defaults have is dropped, as in the reference (`domains.trustedDomains.x.baseUrl` alone creates no
 * domain `x`) unless `keepMissingEntries`; an entry only the defaults have (a built-in template) is
 * copied in first.
 */
function setPath(target: Nested, path: string, value: unknown, defaults?: Nested, keepMissingEntries = false): void {
  const parts = path.split(".");
  if (parts.some((p) => p === "" || UNSAFE_SEGMENTS.has(p))) throw new ConfigOverrideError(`Invalid config key: ${JSON.stringify(path)}`);
  let node = target;
  const created: [Nested, string][] = [];
  for (const [i, part] of parts.slice(0, -1).entries()) {
    const next = node[part];
    if ((next === undefined || next === null) && defaults && isRecordPath(parts.slice(0, i))) {
      const fallback = valueAt(defaults, parts.slice(0, i + 1));
      if (isObject(fallback)) node[part] = structuredClone(fallback);
      else if (keepMissingEntries) node[part] = {};
      else {
        // Dropped: the objects this key created on the way go too, so their defaults still apply.
        for (const [parent, key] of created.reverse()) delete parent[key];
        return;
      }
      created.push([node, part]);
    } else if (next === undefined || next === null) {
      node[part] = {};
      created.push([node, part]);
    } else if (typeof next !== "object" || Array.isArray(next))
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
  "auth.signUpRules",
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

const valueAt = (root: Nested, parts: string[]): unknown =>
  parts.reduce<unknown>((node, part) => (isObject(node) && Object.hasOwn(node, part) ? node[part] : undefined), root);

/** Every record (id → entry) of the rendered schema, as paths with "*" for an entry id. */
let recordPaths: string[][] | undefined;
function isRecordPath(parts: string[]): boolean {
  recordPaths ??= schemaRecordPaths(renderedConfigSchema, []);
  return recordPaths.some((r) => r.length === parts.length && r.every((seg, i) => seg === "*" || seg === parts[i]));
}
function schemaRecordPaths(schema: z.core.$ZodType, path: string[]): string[][] {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  const inner = (key: string) => schemaRecordPaths(def[key] as z.core.$ZodType, path);
  switch (def.type) {
    case "object":
      return Object.entries(def.shape as Record<string, z.core.$ZodType>).flatMap(([k, v]) => schemaRecordPaths(v, [...path, k]));
    case "record":
      return [path, ...schemaRecordPaths(def.valueType as z.core.$ZodType, [...path, "*"])];
    case "optional":
    case "nullable":
    case "default":
    case "readonly":
      return inner("innerType");
    case "pipe":
      return inner("in");
    case "union":
      return (def.options as z.core.$ZodType[]).flatMap((o) => schemaRecordPaths(o, path));
    default:
      return [];
  }
}

/**
 * Renders the levels in order, then Doorman's defaults under whatever they left unset (a key set
 * to null at a later level is removed, so it falls back to the default, as in the reference).
 */
function applyLevels(overrides: ConfigOverrides, asWritten: boolean): Nested {
  const rendered: Nested = {};
  const defaults = toRenderedConfig(defaultProjectConfig()) as unknown as Nested;
  for (const level of OVERRIDE_LEVELS)
    for (const [key, value] of Object.entries(migrateOverrideNames(overrides[level] ?? {})))
      setPath(rendered, key, value, defaults, asWritten);
  fillDefaults(rendered, defaults);
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

/**
 * The rendered config of these levels, or the reason it is not valid. `asWritten` (the check of a
 * write): a dotted key into a record entry that does not exist creates it instead of being dropped,
 * so every key a write sends is checked (`apps.installed.not-an-app.enabled` is refused, not ignored).
 */
export function renderConfig(
  overrides: ConfigOverrides,
  { asWritten = false }: { asWritten?: boolean } = {},
): { ok: true; config: RenderedConfig } | { ok: false; message: string } {
  let nested: Nested;
  try {
    nested = applyLevels(overrides, asWritten);
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
  // The reference's old key names are accepted and stored under the current ones.
  return { ok: true, override: migrateOverrideNames(value as ConfigOverride) };
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
