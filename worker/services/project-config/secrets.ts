/**
 * Secrets inside a project's config (OAuth client secrets, the SMTP password): sealed with
 * AES-256-GCM (crypto/at-rest.ts, key derived from SERVER_SECRET) before the config reaches D1,
 * opened only where they are used (sending mail, talking to the provider), and never shown on reads:
 * the same paths in every shape (overrides, rendered, flat; overrides.ts draws them).
 */
import { decryptAtRest, encryptAtRest } from "../../crypto/at-rest";
import type { Deps } from "../deps";
import type { FlatProjectConfig, FlatProjectConfigUpdate } from "./flat";
import type { ConfigOverride, ConfigOverrides } from "./overrides";
import type { RenderedConfig } from "./rendered";

type Nested = { [key: string]: unknown };

/** A sealed value in the stored config: `sealed:v1.<iv>.<data>`. */
const SEALED_PREFIX = "sealed:";

function isSealed(value: string): boolean {
  return value.startsWith(SEALED_PREFIX);
}

async function seal(deps: Deps, plain: string): Promise<string> {
  return `${SEALED_PREFIX}${await encryptAtRest(deps.tokenKeys.secret, plain)}`;
}

/** Seals a secret submitted in a config override (always anew, for the reason in sealSubmitted). */
export const sealConfigValue = seal;

/**
 * The clear value of a stored config secret; null when it cannot be opened (sealed under a
 * secret that is gone). A value without the prefix is a config written before sealing existed.
 */
export async function openConfigSecret(deps: Deps, stored: string | undefined): Promise<string | null> {
  if (stored === undefined) return null;
  if (!isSealed(stored)) return stored;
  const secrets = [deps.tokenKeys.secret, deps.tokenKeys.previousSecret ?? ""].filter(Boolean);
  return decryptAtRest(secrets, stored.slice(SEALED_PREFIX.length));
}

/** Seals a submitted value; a stored one (kept because the update omitted it) is resealed only if still clear. */
async function sealSubmitted(deps: Deps, submitted: string | undefined, stored: string | undefined): Promise<string | undefined> {
  // Why: a submitted value is always sealed anew, even one that looks sealed, so no one can plant
  // another project's sealed blob and have the worker open it toward a server of their choice.
  if (submitted !== undefined) return seal(deps, submitted);
  if (stored === undefined) return undefined;
  return isSealed(stored) ? stored : seal(deps, stored);
}

/**
 * The submitted part of a config, with every secret in it sealed, ready to merge and store. Only
 * submitted fields are touched: stored ones are sealed already. Secrets are write-only on the wire,
 * so a submitted provider without `client_secret` keeps the stored one of the same id and type,
 * and a standard email config without `password` keeps the stored password.
 */
export async function sealConfigSecrets(
  deps: Deps,
  update: FlatProjectConfigUpdate | undefined,
  previous: FlatProjectConfig | null,
): Promise<FlatProjectConfigUpdate | undefined> {
  if (!update) return update;
  const sealed: FlatProjectConfigUpdate = { ...update };
  if (update.oauth_providers)
    sealed.oauth_providers = await Promise.all(
      update.oauth_providers.map(async (p) => {
        const before = previous?.oauth_providers.find((o) => o.id === p.id && o.type === p.type);
        const client_secret = await sealSubmitted(deps, p.client_secret, before?.client_secret);
        return client_secret === undefined ? p : { ...p, client_secret };
      }),
    );
  if (update.email_config?.type === "standard") {
    const was = previous?.email_config.type === "standard" ? previous.email_config : undefined;
    const next = update.email_config;
    // Why: the password is bound to where it goes; a new host, port or user name must bring its own.
    const sameServer = was && was.host === next.host && was.port === next.port && was.username === next.username;
    const before = sameServer ? was.password : undefined;
    sealed.email_config = { ...update.email_config, password: await sealSubmitted(deps, update.email_config.password, before) };
  }
  return sealed;
}

/** The config as read back by admins: the same, without any secret. */
export function withoutConfigSecrets(config: FlatProjectConfig): FlatProjectConfig {
  const oauth_providers = config.oauth_providers.map(({ client_secret: _secret, ...p }) => p);
  if (config.email_config.type !== "standard") return { ...config, oauth_providers };
  const { password: _password, ...email } = config.email_config;
  return { ...config, oauth_providers, email_config: email as FlatProjectConfig["email_config"] };
}

/**
 * Paths of stored secrets whose destination this write changed without sending the secret again:
 * the assistant's key (provider and base URL), the SMTP password (host, port, user name) and an
 * OAuth client secret (the provider's type), the Turnstile secret (the site key). A secret the write sent is sealed anew, so it differs
 * from the stored one; an unchanged sealed value is one the write only carried along.
 */
export function movedSecretPaths(before: RenderedConfig, after: RenderedConfig): string[] {
  const moved = (a: unknown[], b: unknown[]) => JSON.stringify(a) !== JSON.stringify(b);
  const carried = (a: string | undefined, b: string | undefined) => b !== undefined && a === b;
  const paths: string[] = [];
  const [ai0, ai1] = [before.doorman.ai, after.doorman.ai];
  if (carried(ai0.apiKey, ai1.apiKey) && moved([ai0.provider, ai0.baseUrl], [ai1.provider, ai1.baseUrl])) paths.push("doorman.ai.apiKey");
  const [s0, s1] = [before.emails.server, after.emails.server];
  if (carried(s0.password, s1.password) && moved([s0.host, s0.port, s0.username], [s1.host, s1.port, s1.username]))
    paths.push("emails.server.password");
  for (const [id, p1] of Object.entries(after.auth.oauth.providers)) {
    const p0 = Object.hasOwn(before.auth.oauth.providers, id) ? before.auth.oauth.providers[id] : undefined;
    if (p0 && carried(p0.clientSecret, p1.clientSecret) && p0.type !== p1.type) paths.push(`auth.oauth.providers.${id}.clientSecret`);
  }
  // A Turnstile secret belongs to one widget: a new site key is another widget, whose secret this is not.
  const [t0, t1] = [before.doorman.protection.turnstile, after.doorman.protection.turnstile];
  if (carried(t0.secretKey, t1.secretKey) && t0.siteKey !== t1.siteKey) paths.push("doorman.protection.turnstile.secretKey");
  return paths;
}

/** The overrides with every leaf at one of `paths` removed, at every level (dotted keys or nested objects alike). */
export function dropSecretPaths(overrides: ConfigOverrides, paths: string[]): ConfigOverrides {
  const drop = new Set(paths);
  const walk = (path: string, value: unknown): unknown => {
    if (drop.has(path)) return undefined;
    if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const kept = walk(`${path}.${k}`, v);
      if (kept !== undefined) out[k] = kept;
    }
    return out;
  };
  const result: ConfigOverrides = {};
  for (const [level, override] of Object.entries(overrides) as [keyof ConfigOverrides, ConfigOverride | undefined][]) {
    if (!override) continue;
    const out: ConfigOverride = {};
    for (const [k, v] of Object.entries(override)) {
      const kept = walk(k, v);
      if (kept !== undefined) out[k] = kept;
    }
    result[level] = out;
  }
  return result;
}

/** Paths of secrets inside the rendered config: sealed at rest, never answered. */
const SECRET_PATHS = [
  /^auth\.oauth\.providers\.[^.]+\.clientSecret$/,
  /^emails\.server\.password$/,
  /^doorman\.ai\.apiKey$/,
  /^doorman\.protection\.turnstile\.secretKey$/,
];
export const isSecretPath = (path: string) => SECRET_PATHS.some((re) => re.test(path));
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
