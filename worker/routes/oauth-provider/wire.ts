/**
 * The shapes of the OpenID provider's protocol endpoints, for their declarations (OpenAPI, docs/api.md,
 * the generated suites): RFC 6749 request parameters and answers, RFC 7662 introspection, RFC 6749
 * errors. Requests are loose objects of optional strings: an unknown parameter is ignored (RFC 6749
 * §3.1), and a missing or malformed one is the handler's invalid_request, never SCHEMA_ERROR.
 */
import { z } from "zod";

const param = (description: string) => z.string().optional().describe(description);

/** Every route of the provider takes the project id as its issuer's last segment. */
export const issuerParams = z.strictObject({ projectId: z.string().min(1).max(128) });

/** RFC 6749 §5.2 (and RFC 6750 §3, RFC 7009, RFC 8707): the error body. */
export const oauthErrorSchema = z.object({ error: z.string(), error_description: z.string().optional() });

export const authorizeParamsSchema = z.looseObject({
  client_id: param("The app's client id."),
  redirect_uri: param("One of the app's registered redirect URIs (exact; a loopback IP literal on any port)."),
  response_type: param('"code" (the only response type).'),
  response_mode: param('"query" (the only response mode).'),
  scope: param("Space-separated: openid, profile, email, offline_access, team, and the project's custom scopes."),
  state: param("Returned unchanged to the redirect URI."),
  nonce: param("Copied into the ID token."),
  code_challenge: param("PKCE: BASE64URL(SHA-256(code_verifier)) (required)."),
  code_challenge_method: param('"S256" (required; plain is refused).'),
  resource: param("RFC 8707: the API the tokens are for (their audience)."),
  prompt: param("none, login, consent or select_account (space-separated)."),
  max_age: param("Seconds: an older sign-in must be repeated."),
});

const clientAuthParams = {
  client_id: param("client_secret_post and none: the client id (client_secret_basic: in the Authorization header)."),
  client_secret: param("client_secret_post: the client secret."),
  client_assertion_type: param("private_key_jwt: urn:ietf:params:oauth:client-assertion-type:jwt-bearer."),
  client_assertion: param("private_key_jwt: a JWT signed with one of the client's keys (RFC 7523)."),
};

export const tokenBodySchema = z.looseObject({
  grant_type: param("authorization_code or refresh_token."),
  code: param("authorization_code: the code from the redirect."),
  redirect_uri: param("authorization_code: the redirect URI of the authorization request."),
  code_verifier: param("authorization_code: the PKCE verifier."),
  refresh_token: param("refresh_token: the refresh token (it is rotated)."),
  scope: param("refresh_token: a narrower scope for this access token."),
  resource: param("The grant's resource (RFC 8707), when given."),
  ...clientAuthParams,
});

export const tokenResponseSchema = z.object({
  access_token: z.string().describe("An RFC 9068 JWT (typ at+jwt), audience = the resource, else the issuer."),
  token_type: z.literal("Bearer"),
  expires_in: z.number().int(),
  scope: z.string(),
  id_token: z.string().optional().describe("With scope openid."),
  refresh_token: z.string().optional().describe("With scope offline_access; rotated on every refresh."),
});

export const tokenQueryBodySchema = z.looseObject({
  token: param("The access or refresh token."),
  token_type_hint: param("access_token or refresh_token (a hint: both are looked up)."),
  ...clientAuthParams,
});

export const introspectionSchema = z.object({
  active: z.boolean(),
  scope: z.string().optional(),
  client_id: z.string().optional(),
  sub: z.string().optional(),
  aud: z.string().optional(),
  iss: z.string().optional(),
  exp: z.number().int().optional(),
  iat: z.number().int().optional(),
  token_type: z.string().optional().describe('"Bearer" (an access token) or "refresh_token".'),
  team_id: z.string().optional(),
});

export const userinfoBodySchema = z.looseObject({ access_token: param("The access token (else the Authorization: Bearer header).") });

export const userinfoSchema = z.looseObject({
  sub: z.string(),
  name: z.string().optional(),
  picture: z.string().optional(),
  email: z.string().optional(),
  email_verified: z.boolean().optional(),
  team_id: z.string().optional(),
});

export const providerMetadataSchema = z.looseObject({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  userinfo_endpoint: z.string(),
  jwks_uri: z.string(),
  registration_endpoint: z.string().optional(),
  revocation_endpoint: z.string(),
  introspection_endpoint: z.string(),
  scopes_supported: z.array(z.string()),
  response_types_supported: z.array(z.string()),
  code_challenge_methods_supported: z.array(z.string()),
  authorization_response_iss_parameter_supported: z.boolean(),
  client_id_metadata_document_supported: z.boolean().optional(),
});

export const notFoundResponse = {
  status: 404,
  description: "No such project (plain text)",
  schema: z.string(),
  contentType: "text/plain",
} as const;
