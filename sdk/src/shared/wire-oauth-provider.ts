/**
 * The wire of Doorman as an OAuth 2.1 / OpenID Connect provider (issue 30), beside the protocol
 * endpoints themselves (which speak RFC 6749/7591/7662/7009 JSON, not these shapes):
 * - the consent page's API (client access with the user's session): an authorization request, approve, deny;
 * - the user's authorized apps (list, revoke);
 * - the owners' client registry (/internal/oauth-clients).
 * Zod schemas for the worker's declarations; the SDK uses the inferred types.
 */
import { z } from "zod";

const millis = z.number().int();

/** Where the protocol endpoints live, relative to the issuer `{API_URL}/api/v1/projects/{projectId}`. */
export const OAUTH_PROVIDER_PATHS = {
  authorization: "/oauth/authorize",
  token: "/oauth/token",
  userinfo: "/oauth/userinfo",
  revocation: "/oauth/revoke",
  introspection: "/oauth/introspect",
  registration: "/oauth/register",
  jwks: "/.well-known/jwks.json",
  openidConfiguration: "/.well-known/openid-configuration",
  authorizationServerMetadata: "/.well-known/oauth-authorization-server",
} as const;

/** The hosted page the authorize endpoint sends the browser to: `{hosted pages}/oauth-consent?request_id=…`. */
export const OAUTH_CONSENT_PAGE = "oauth-consent";

/** The issuer of a project: its access tokens' `iss`, and its OpenID provider's identifier. */
export function oauthIssuer(apiUrl: string, projectId: string): string {
  return `${apiUrl.replace(/\/+$/, "")}/api/v1/projects/${projectId}`;
}

/** The app as the consent page and the authorized-apps list show it. */
export const oauthAppSchema = z.object({
  client_id: z.string(),
  name: z.string(),
  logo_uri: z.string().nullable(),
  client_uri: z.string().nullable(),
  policy_uri: z.string().nullable(),
  tos_uri: z.string().nullable(),
  /** "console" (the project's owner registered it), "dynamic" (RFC 7591) or "metadata_document" (CIMD). */
  source: z.enum(["console", "dynamic", "metadata_document"]),
});

/** One scope, with the sentence the consent page shows (standard scopes: the SDK's translated text; custom: the owner's). */
export const oauthScopeSchema = z.object({
  name: z.string(),
  /** The owner's description of a custom scope; null for standard scopes (the page translates those). */
  description: z.string().nullable(),
});

/** GET /oauth-provider/authorization-requests/{request_id}: what the consent page shows. */
export const oauthAuthorizationRequestSchema = z.object({
  id: z.string(),
  client: oauthAppSchema,
  scopes: z.array(oauthScopeSchema),
  /** The RFC 8707 resource the tokens will be for (null: the project's own userinfo only). */
  resource: z.string().nullable(),
  redirect_uri: z.string(),
  /** The app asked for a token bound to one of the user's teams: the page must let the user choose one. */
  team_requested: z.boolean(),
  /** The user's teams to choose from (empty unless team_requested). */
  teams: z.array(z.object({ id: z.string(), display_name: z.string() })),
  /** OIDC prompt values the app sent ("login", "consent", "none", "select_account"). */
  prompt: z.array(z.string()),
  /** The user already consented to all of this and no prompt asks again: the page may approve at once. */
  consent_required: z.boolean(),
  /** The session is older than the app's max_age: the page must sign the user in again first. */
  reauthentication_required: z.boolean(),
  expires_at_millis: millis,
});

/** POST …/approve body: the team the token is bound to (when the app asked for one). */
export const oauthApproveBodySchema = z.strictObject({ team_id: z.string().optional() });

/** POST …/deny body: why (access_denied when the user refused; login_required etc. for prompt=none). */
export const oauthDenyBodySchema = z.strictObject({
  error: z.enum(["access_denied", "login_required", "consent_required", "interaction_required", "account_selection_required"]).optional(),
});

/** Approve and deny answer where the browser goes next: the app's redirect URI with code or error, state and iss. */
export const oauthRedirectSchema = z.object({ redirect_url: z.string() });

/** One app the user authorized (GET /oauth-provider/authorized-apps). */
export const oauthAuthorizedAppSchema = z.object({
  client: oauthAppSchema,
  scopes: z.array(z.string()),
  team_id: z.string().nullable(),
  authorized_at_millis: millis,
  last_used_at_millis: millis.nullable(),
});

/** An OAuth client as owners see it (never its secret, except once in the create/rotate answers). */
export const oauthClientAdminSchema = z.object({
  client_id: z.string(),
  source: z.enum(["console", "dynamic", "metadata_document"]),
  name: z.string(),
  client_type: z.enum(["confidential", "public"]),
  token_endpoint_auth_method: z.enum(["client_secret_basic", "client_secret_post", "private_key_jwt", "none"]),
  redirect_uris: z.array(z.string()),
  allowed_scopes: z.array(z.string()).nullable(),
  logo_uri: z.string().nullable(),
  client_uri: z.string().nullable(),
  policy_uri: z.string().nullable(),
  tos_uri: z.string().nullable(),
  jwks_uri: z.string().nullable(),
  has_jwks: z.boolean(),
  /** The secret's first characters, to tell secrets apart (null without a secret). */
  secret_prefix: z.string().nullable(),
  created_at_millis: millis,
  updated_at_millis: millis,
});

/** POST /internal/oauth-clients and POST …/{client_id}/secret answer the client and, once, its secret. */
export const oauthClientWithSecretSchema = oauthClientAdminSchema.extend({ client_secret: z.string().nullable() });

export type OAuthAppJson = z.infer<typeof oauthAppSchema>;
export type OAuthScopeJson = z.infer<typeof oauthScopeSchema>;
export type OAuthAuthorizationRequestJson = z.infer<typeof oauthAuthorizationRequestSchema>;
export type OAuthRedirectJson = z.infer<typeof oauthRedirectSchema>;
export type OAuthAuthorizedAppJson = z.infer<typeof oauthAuthorizedAppSchema>;
export type OAuthClientAdminJson = z.infer<typeof oauthClientAdminSchema>;
export type OAuthClientWithSecretJson = z.infer<typeof oauthClientWithSecretSchema>;

/*
 * The client registry's request bodies (POST and PATCH /internal/oauth-clients). Zod checks the
 * types and generous lengths; the worker's rules (services/oauth-provider/client-rules.ts) check
 * the rest and answer OAUTH_CLIENT_INVALID naming the field.
 */
const optionalUri = (max: number) => z.string().max(max).nullable().optional();
/** A JWKS of public keys (private members are refused by the rules). */
export const oauthJwksSchema = z.object({ keys: z.array(z.record(z.string(), z.unknown())).max(20) });

/** POST /internal/oauth-clients. `token_endpoint_auth_method` defaults to `none` (public) or `client_secret_basic` (confidential). */
export const oauthClientCreateSchema = z.strictObject({
  name: z.string().max(256),
  client_type: z.enum(["confidential", "public"]),
  token_endpoint_auth_method: z.enum(["client_secret_basic", "client_secret_post", "private_key_jwt", "none"]).optional(),
  redirect_uris: z.array(z.string().max(4096)).max(100),
  /** Null or absent: every scope the project offers. */
  allowed_scopes: z.array(z.string().max(128)).max(100).nullable().optional(),
  /** An https URL, or a small data:image/… URI. */
  logo_uri: optionalUri(32_768),
  client_uri: optionalUri(4096),
  policy_uri: optionalUri(4096),
  tos_uri: optionalUri(4096),
  /** private_key_jwt: the client's public keys, inline… */
  jwks: oauthJwksSchema.nullable().optional(),
  /** …or where to fetch them (https). */
  jwks_uri: optionalUri(4096),
});

/** PATCH /internal/oauth-clients/{client_id}: the fields to change (null clears an optional one). The client type is fixed. */
export const oauthClientUpdateSchema = oauthClientCreateSchema.omit({ client_type: true }).partial();

export type OAuthClientCreateJson = z.infer<typeof oauthClientCreateSchema>;
export type OAuthClientUpdateJson = z.infer<typeof oauthClientUpdateSchema>;
