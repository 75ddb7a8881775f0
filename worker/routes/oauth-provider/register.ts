/**
 * RFC 7591 dynamic client registration, `POST {issuer}/oauth/register` (issuer =
 * /api/v1/projects/{projectId}): public, rate-limited per address, and only when the project turns
 * it on. It speaks RFC 7591 JSON, not the known-error catalogue: 201 with the client, or
 * `{error, error_description}` with invalid_redirect_uri / invalid_client_metadata (400), and
 * access_denied (403) when registration is off or the project's cap of dynamic clients is reached.
 */
import { KnownError } from "@doorman/shared/known-errors";
import { oauthJwksSchema } from "@doorman/shared/wire-oauth-provider";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../http/hono-env";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { registerDynamicClient, registrationRequestSchema } from "../../services/oauth-provider/client-registration";
import { registrationView } from "../../views/oauth-clients";

const oauthErrorSchema = z.object({ error: z.string(), error_description: z.string() });

const registrationResponseSchema = z.object({
  client_id: z.string(),
  client_secret: z.string().optional(),
  client_secret_expires_at: z.literal(0).optional(),
  client_id_issued_at: z.number().int(),
  client_name: z.string(),
  redirect_uris: z.array(z.string()),
  token_endpoint_auth_method: z.string(),
  grant_types: z.array(z.string()),
  response_types: z.array(z.string()),
  scope: z.string().optional(),
  logo_uri: z.string().optional(),
  client_uri: z.string().optional(),
  policy_uri: z.string().optional(),
  tos_uri: z.string().optional(),
  jwks_uri: z.string().optional(),
  jwks: oauthJwksSchema.optional(),
});

const register = defineRoute({
  method: "post",
  path: "/{projectId}/oauth/register",
  summary: "Register an OAuth client (RFC 7591 dynamic client registration), when the project turns it on",
  description:
    "Open registration for third-party apps and MCP clients (`doorman.oauthProvider.dynamicRegistration`). token_endpoint_auth_method defaults to client_secret_basic (RFC 7591); `none` registers a public client (PKCE only). Unknown members are ignored; scopes the project does not offer are dropped from `scope`. Errors are RFC 7591 JSON.",
  access: "public",
  params: z.strictObject({ projectId: z.string().min(1).max(64) }),
  body: registrationRequestSchema,
  maxBodyBytes: 64 * 1024,
  response: [
    {
      status: 201,
      description: "The registered client; client_secret only for client_secret_basic/post",
      schema: registrationResponseSchema,
    },
    { status: 400, description: "invalid_redirect_uri or invalid_client_metadata", schema: oauthErrorSchema },
    {
      status: 403,
      description: "access_denied: registration is off, or the project's cap of dynamic clients is reached",
      schema: oauthErrorSchema,
    },
    { status: 404, description: "invalid_request: no such project", schema: oauthErrorSchema },
  ],
  rateLimit: { ip: "OAUTH_CLIENT_REGISTER_PER_IP" },
});

/** An RFC 7591 §3.2.2 error answer (no-store, like every answer here). */
function oauthError(c: Context<AppEnv>, status: 400 | 403 | 404, error: string, description: string) {
  return c.json({ error, error_description: description }, status, { "cache-control": "no-store" });
}

type Refusal = Exclude<Awaited<ReturnType<typeof registerDynamicClient>>, { ok: true }>;

function refusal(c: Context<AppEnv>, p: Refusal) {
  switch (p.reason) {
    case "project_not_found":
      return oauthError(c, 404, "invalid_request", "No such project.");
    case "oauth_registration_disabled":
      return oauthError(
        c,
        403,
        "access_denied",
        "Dynamic client registration is turned off for this project; ask its owner to register the app.",
      );
    case "oauth_client_limit_reached":
      return oauthError(c, 403, "access_denied", `This project has reached its limit of ${p.limit} dynamically registered clients.`);
    case "oauth_client_invalid":
      return oauthError(
        c,
        400,
        p.field === "redirect_uris" ? "invalid_redirect_uri" : "invalid_client_metadata",
        `${p.field}: ${p.message}`,
      );
  }
}

export const oauthRegisterRoutes = routeGroup();
// A body or path that fails validation is invalid_client_metadata here, not the catalogue's SCHEMA_ERROR.
oauthRegisterRoutes.onError((err, c) => {
  if (err instanceof KnownError && (err.code === "SCHEMA_ERROR" || err.code === "BODY_PARSING_ERROR"))
    return oauthError(c, 400, "invalid_client_metadata", err.message);
  throw err;
});
addRoute(oauthRegisterRoutes, register, async (c, { params, body }) => {
  const result = await registerDynamicClient(c.get("deps"), params.projectId, body);
  if (!result.ok) return refusal(c, result);
  const { client, secret, grantTypes, responseTypes } = result.value;
  // RFC 7591 §3.2.1: the answer carries a secret, so no cache keeps it.
  return c.json(registrationView(client, secret, grantTypes, responseTypes), 201, { "cache-control": "no-store", pragma: "no-cache" });
});
