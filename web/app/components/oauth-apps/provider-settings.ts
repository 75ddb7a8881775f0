/**
 * The OpenID provider's settings as the OAuth apps page edits them: config `doorman.oauthProvider`
 * (worker/services/oauth-provider/config.ts) read from the rendered config, the forms' checks (custom
 * scopes; token lifetimes and allowed resources), the dotted keys written back with updateConfig, and
 * the API's refusal placed on its field.
 */
import { CUSTOM_SCOPE_NAME, isStandardScope, STANDARD_SCOPES } from "@doorman/shared/oauth-scopes";
import type { OwnedProject } from "../../lib/dashboard-types";

const MAX_CUSTOM_SCOPES = 50;
const MAX_RESOURCES = 50;

export type ProviderSettings = {
  enabled: boolean;
  dynamicRegistration: boolean;
  clientIdMetadataDocuments: boolean;
  scopes: Record<string, { description: string }>;
  resources: string[];
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
};

/** The worker's defaults, for a config that does not answer a key. */
const DEFAULTS: ProviderSettings = {
  enabled: true,
  dynamicRegistration: false,
  clientIdMetadataDocuments: false,
  scopes: {},
  resources: [],
  accessTokenTtlSeconds: 3600,
  refreshTokenTtlDays: 30,
};

export function providerFromConfig(config: Record<string, unknown>): ProviderSettings {
  const p = ((config.doorman as { oauthProvider?: Partial<ProviderSettings> } | undefined)?.oauthProvider ??
    {}) as Partial<ProviderSettings>;
  return { ...DEFAULTS, ...p, scopes: { ...p.scopes }, resources: [...(p.resources ?? [])] };
}

export async function loadProviderSettings(project: OwnedProject): Promise<ProviderSettings> {
  return providerFromConfig(await project.getConfig());
}

/** Every scope a client of the project may be allowed. */
export const offeredScopes = (settings: ProviderSettings): string[] => [...STANDARD_SCOPES, ...Object.keys(settings.scopes)];

export type ProviderToggle = "enabled" | "dynamicRegistration" | "clientIdMetadataDocuments";
export const toggleOverride = (key: ProviderToggle, on: boolean) => ({ [`doorman.oauthProvider.${key}`]: on });

/** Field errors by the id of the field in error, in page order. */
export type FieldErrors = Record<string, string>;

export type ScopeRow = { name: string; description: string };
export const scopeRowsOf = (s: ProviderSettings): ScopeRow[] =>
  Object.entries(s.scopes).map(([name, { description }]) => ({ name, description }));
export const scopeNameId = (i: number) => `oauth-scope-name-${i}`;
export const scopeDescriptionId = (i: number) => `oauth-scope-description-${i}`;

export function scopeProblems(rows: ScopeRow[]): FieldErrors {
  const errors: FieldErrors = {};
  const seen = new Set<string>();
  rows.forEach((row, i) => {
    const name = row.name.trim();
    if (!CUSTOM_SCOPE_NAME.test(name))
      errors[scopeNameId(i)] = "Use letters, digits and _ . : / - (at most 64), starting with a letter or digit.";
    else if (isStandardScope(name)) errors[scopeNameId(i)] = `${name} is a standard scope: pick another name.`;
    else if (seen.has(name)) errors[scopeNameId(i)] = `${name} is listed twice.`;
    seen.add(name);
    const description = row.description.trim();
    if (!description) errors[scopeDescriptionId(i)] = "Say what the scope lets an app do: the consent page shows it.";
    else if (description.length > 200) errors[scopeDescriptionId(i)] = "At most 200 characters.";
  });
  if (rows.length > MAX_CUSTOM_SCOPES && rows.length)
    errors[scopeNameId(MAX_CUSTOM_SCOPES)] = `At most ${MAX_CUSTOM_SCOPES} custom scopes.`;
  return errors;
}

/** The whole record at once: a removed scope is gone, not merged back. */
export const scopesOverride = (rows: ScopeRow[]) => ({
  "doorman.oauthProvider.scopes": Object.fromEntries(rows.map((r) => [r.name.trim(), { description: r.description.trim() }])),
});

export type TokenForm = { accessTokenTtlSeconds: string; refreshTokenTtlDays: string; resources: string };
export const TOKEN_FIELD_IDS = {
  accessTokenTtlSeconds: "oauth-access-token-ttl",
  refreshTokenTtlDays: "oauth-refresh-token-ttl",
  resources: "oauth-resources",
} as const;

export const tokenFormOf = (s: ProviderSettings): TokenForm => ({
  accessTokenTtlSeconds: String(s.accessTokenTtlSeconds),
  refreshTokenTtlDays: String(s.refreshTokenTtlDays),
  resources: s.resources.join("\n"),
});

/** The non-empty lines of a textarea, trimmed. */
export const linesOf = (text: string): string[] =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);

function absoluteUrlProblem(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.hash || value.includes("#")) return `${value} has a fragment (#): resource indicators must not.`;
    return null;
  } catch {
    return `${value} is not an absolute URL (such as https://api.example.com).`;
  }
}

export function tokenProblems(form: TokenForm): FieldErrors {
  const errors: FieldErrors = {};
  const whole = (v: string, min: number, max: number) => /^\d+$/.test(v.trim()) && Number(v) >= min && Number(v) <= max;
  if (!whole(form.accessTokenTtlSeconds, 60, 86_400))
    errors[TOKEN_FIELD_IDS.accessTokenTtlSeconds] = "Use a whole number of seconds from 60 to 86400 (a day).";
  if (!whole(form.refreshTokenTtlDays, 1, 365)) errors[TOKEN_FIELD_IDS.refreshTokenTtlDays] = "Use a whole number of days from 1 to 365.";
  const resources = linesOf(form.resources);
  const bad = resources.map(absoluteUrlProblem).find(Boolean);
  if (bad) errors[TOKEN_FIELD_IDS.resources] = bad;
  else if (resources.length > MAX_RESOURCES) errors[TOKEN_FIELD_IDS.resources] = `At most ${MAX_RESOURCES} resources.`;
  return errors;
}

export const tokenOverride = (form: TokenForm) => ({
  "doorman.oauthProvider.accessTokenTtlSeconds": Number(form.accessTokenTtlSeconds.trim()),
  "doorman.oauthProvider.refreshTokenTtlDays": Number(form.refreshTokenTtlDays.trim()),
  "doorman.oauthProvider.resources": [...new Set(linesOf(form.resources))],
});

/** "Invalid config value at doorman.oauthProvider.resources.0: …" → that field's error; else the form's. */
export function placeProviderError(message: string, rows: ScopeRow[] = []): { field: string | null; message: string } {
  const match = /^Invalid config value at doorman\.oauthProvider\.(\w+)(?:\.(.+?))?: (.*)$/s.exec(message.trim());
  if (!match) return { field: null, message };
  const [, key, rest, text] = match as unknown as [string, string, string | undefined, string];
  if (key === "accessTokenTtlSeconds" || key === "refreshTokenTtlDays" || key === "resources")
    return { field: TOKEN_FIELD_IDS[key], message: text };
  if (key === "scopes") {
    const index = rows.findIndex((r) => rest?.startsWith(r.name.trim()));
    return { field: scopeNameId(Math.max(index, 0)), message: text };
  }
  return { field: null, message };
}
