/**
 * The register / edit form of an OAuth client on the OAuth apps page: its state, the console's own
 * checks (what can be told before asking the API), the SDK options it sends, and where the API's
 * OAUTH_CLIENT_INVALID goes (its `details.field` names the field). The worker holds the rules
 * (worker/services/oauth-provider/client-rules.ts); these checks only save a round trip.
 */
import type { OAuthClient, OAuthClientCreateOptions, OAuthClientUpdateOptions, OAuthTokenEndpointAuthMethod } from "@doorman/sdk";
import { linesOf } from "./provider-settings";

export type ClientType = "confidential" | "public";

export type ClientForm = {
  name: string;
  clientType: ClientType;
  authMethod: OAuthTokenEndpointAuthMethod;
  /** One per line. */
  redirectUris: string;
  /** Every scope the project offers (allowed_scopes null), or only `scopes`. */
  allScopes: boolean;
  scopes: string[];
  logoUri: string;
  clientUri: string;
  policyUri: string;
  tosUri: string;
  /** private_key_jwt: the keys inline (a JWKS as JSON) or by URL. */
  keys: "jwks" | "jwksUri";
  jwks: string;
  jwksUri: string;
};

/** The form's fields, named as the API names them in OAUTH_CLIENT_INVALID. */
export const CLIENT_FIELDS = [
  "name",
  "token_endpoint_auth_method",
  "redirect_uris",
  "allowed_scopes",
  "logo_uri",
  "client_uri",
  "policy_uri",
  "tos_uri",
  "jwks",
  "jwks_uri",
] as const;
export type ClientField = (typeof CLIENT_FIELDS)[number];
/** Errors by field, in form order. */
export type ClientFieldErrors = Partial<Record<ClientField, string>>;

export const AUTH_METHODS: Record<ClientType, OAuthTokenEndpointAuthMethod[]> = {
  confidential: ["client_secret_basic", "client_secret_post", "private_key_jwt"],
  public: ["none"],
};

export const AUTH_METHOD_LABELS: Record<OAuthTokenEndpointAuthMethod, string> = {
  client_secret_basic: "Client secret, HTTP Basic (client_secret_basic)",
  client_secret_post: "Client secret in the form body (client_secret_post)",
  private_key_jwt: "Signed JWT with the app's private key (private_key_jwt)",
  none: "None: PKCE only (public clients)",
};

export const emptyClientForm = (): ClientForm => ({
  name: "",
  clientType: "confidential",
  authMethod: "client_secret_basic",
  redirectUris: "",
  allScopes: true,
  scopes: [],
  logoUri: "",
  clientUri: "",
  policyUri: "",
  tosUri: "",
  keys: "jwks",
  jwks: "",
  jwksUri: "",
});

/** An existing client in the form (its inline keys are not read back: empty keeps them). */
export const clientFormOf = (c: OAuthClient): ClientForm => ({
  name: c.name,
  clientType: c.clientType,
  authMethod: c.tokenEndpointAuthMethod,
  redirectUris: c.redirectUris.join("\n"),
  allScopes: c.allowedScopes === null,
  scopes: c.allowedScopes ?? [],
  logoUri: c.logoUri ?? "",
  clientUri: c.clientUri ?? "",
  policyUri: c.policyUri ?? "",
  tosUri: c.tosUri ?? "",
  keys: c.jwksUri ? "jwksUri" : "jwks",
  jwks: "",
  jwksUri: c.jwksUri ?? "",
});

/** A type change picks that type's first method (a public client has only `none`). */
export const withClientType = (form: ClientForm, clientType: ClientType): ClientForm => ({
  ...form,
  clientType,
  authMethod: AUTH_METHODS[clientType].includes(form.authMethod)
    ? form.authMethod
    : (AUTH_METHODS[clientType][0] as OAuthTokenEndpointAuthMethod),
});

function parseJwks(text: string): { keys: Record<string, unknown>[] } | string {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === "object" && value !== null && Array.isArray((value as { keys?: unknown }).keys))
      return value as { keys: Record<string, unknown>[] };
  } catch {
    // reported below
  }
  return 'Paste a JWK Set: a JSON object like {"keys": [{"kty": "EC", …}]}.';
}

const URL_FIELDS = [
  ["logoUri", "logo_uri"],
  ["clientUri", "client_uri"],
  ["policyUri", "policy_uri"],
  ["tosUri", "tos_uri"],
] as const;

/** What the console can tell before asking the API; `editing` keeps stored inline keys when none are pasted. */
export function clientFormProblems(form: ClientForm, editing: { hasJwks: boolean } | null = null): ClientFieldErrors {
  const errors: ClientFieldErrors = {};
  const name = form.name.trim();
  if (!name) errors.name = "Give the app a name: people see it when they are asked to allow it.";
  else if (name.length > 100) errors.name = "At most 100 characters.";
  const uris = linesOf(form.redirectUris);
  if (uris.length === 0) errors.redirect_uris = "Add at least one redirect URI, one per line.";
  else if (uris.length > 20) errors.redirect_uris = "At most 20 redirect URIs.";
  else {
    const bad = uris.find((u) => {
      try {
        new URL(u);
        return false;
      } catch {
        return true;
      }
    });
    if (bad) errors.redirect_uris = `${bad} is not an absolute URL (such as https://app.example.com/callback).`;
  }
  if (!form.allScopes && form.scopes.length === 0) errors.allowed_scopes = "Tick at least one scope, or allow every scope.";
  for (const [key, field] of URL_FIELDS) {
    const value = form[key].trim();
    if (value && !/^https:\/\//i.test(value) && !(key === "logoUri" && value.startsWith("data:image/")))
      errors[field] = key === "logoUri" ? "Use an https URL (or a small data:image/… URI)." : "Use an https URL.";
  }
  if (form.authMethod === "private_key_jwt") {
    if (form.keys === "jwksUri" && !/^https?:\/\/\S+$/i.test(form.jwksUri.trim()))
      errors.jwks_uri = "Enter the URL of the app's JWK Set (https).";
    if (form.keys === "jwks") {
      const parsed = form.jwks.trim() ? parseJwks(form.jwks) : editing?.hasJwks ? null : "Paste the app's public keys (a JWK Set).";
      if (typeof parsed === "string") errors.jwks = parsed;
    }
  }
  return errors;
}

const orNull = (v: string) => v.trim() || null;

function keysOf(form: ClientForm, editing: boolean): Pick<OAuthClientCreateOptions, "jwks" | "jwksUri"> {
  if (form.authMethod !== "private_key_jwt") return editing ? {} : { jwks: null, jwksUri: null };
  if (form.keys === "jwksUri") return { jwks: null, jwksUri: form.jwksUri.trim() };
  // Editing with nothing pasted keeps the stored keys.
  if (!form.jwks.trim()) return editing ? { jwksUri: null } : { jwks: null };
  return { jwks: JSON.parse(form.jwks) as { keys: Record<string, unknown>[] }, jwksUri: null };
}

function fieldsOf(form: ClientForm) {
  return {
    name: form.name.trim(),
    redirectUris: linesOf(form.redirectUris),
    allowedScopes: form.allScopes ? null : form.scopes,
    logoUri: orNull(form.logoUri),
    clientUri: orNull(form.clientUri),
    policyUri: orNull(form.policyUri),
    tosUri: orNull(form.tosUri),
  };
}

export const createOptionsOf = (form: ClientForm): OAuthClientCreateOptions => ({
  ...fieldsOf(form),
  clientType: form.clientType,
  tokenEndpointAuthMethod: form.authMethod,
  ...keysOf(form, false),
});

export const updateOptionsOf = (form: ClientForm): OAuthClientUpdateOptions => ({
  ...fieldsOf(form),
  tokenEndpointAuthMethod: form.authMethod,
  ...keysOf(form, true),
});

/** The API's OAUTH_CLIENT_INVALID on its field (when the form has it), else the form's alert. */
export function placeClientError(error: unknown): { field: ClientField | null; message: string } | null {
  const e = error as { code?: unknown; details?: { field?: unknown; message?: unknown } } | null;
  if (e?.code !== "OAUTH_CLIENT_INVALID" || typeof e.details?.message !== "string") return null;
  // The worker's rule, as it says it ("a client needs a name…", "http://x/cb uses http: …").
  const field = CLIENT_FIELDS.find((f) => f === e.details?.field) ?? null;
  return { field, message: e.details.message };
}
