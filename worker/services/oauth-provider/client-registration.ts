/**
 * RFC 7591 dynamic client registration at `{issuer}/oauth/register`, when the project turns it on:
 * anyone may register an app (MCP clients do, before their first sign-in), under the same rules as
 * the console, a per-address rate limit (OAUTH_CLIENT_REGISTER_PER_IP) and a cap of dynamic clients
 * per project, so open registration cannot grow the database without bound.
 */
import { oauthJwksSchema } from "@doorman/shared/wire-oauth-provider";
import { z } from "zod";
import { insertDynamicClientStatement, type OAuthClientRow } from "../../db/queries/oauth-clients";
import type { Deps } from "../deps";
import { eventIfChangedStatement } from "../events";
import { renderedConfigOf } from "../project-config/cache";
import { fail, type Problem } from "../result";
import { loadProject } from "../seed";
import { newClientRow, ruleContext } from "./client-registry";
import { type ClientMetadata, checkClientMetadata, type TokenEndpointAuthMethod } from "./client-rules";

/**
 * Dynamic clients a project keeps at most. Why 1,000: far more apps than one project's users
 * meet, while the rows stay bounded (a row is at most about 55 KiB: CLIENT_LIMITS), so about 55 MiB in
 * the worst case. Owners delete unused ones in the console (OAuth apps) to make room.
 */
export const DYNAMIC_CLIENT_CAP = 1000;

/** What Doorman's token endpoint grants; a client asking for another (implicit, password) is told at once. */
const GRANT_TYPES = ["authorization_code", "refresh_token"];
const RESPONSE_TYPES = ["code"];
const AUTH_METHODS: readonly TokenEndpointAuthMethod[] = ["client_secret_basic", "client_secret_post", "private_key_jwt", "none"];

/**
 * An RFC 7591 §2 request: the members Doorman reads, typed (a wrong type is invalid_client_metadata);
 * any other member is ignored, as §2 requires. Null counts as absent (some clients send it).
 */
const text = (max: number) => z.string().max(max).nullish();
export const registrationRequestSchema = z.looseObject({
  redirect_uris: z.array(z.string().max(4096)).max(100),
  client_name: text(256),
  token_endpoint_auth_method: text(64),
  grant_types: z.array(z.string().max(64)).max(10).nullish(),
  response_types: z.array(z.string().max(64)).max(10).nullish(),
  scope: text(4096),
  logo_uri: text(32_768),
  client_uri: text(4096),
  policy_uri: text(4096),
  tos_uri: text(4096),
  jwks: oauthJwksSchema.nullish(),
  jwks_uri: text(4096),
  contacts: z.array(z.string().max(256)).max(10).nullish(),
  software_id: text(256),
  software_version: text(256),
});
export type RegistrationRequest = z.infer<typeof registrationRequestSchema>;

export type DynamicRegistration = { client: OAuthClientRow; secret: string | null; grantTypes: string[]; responseTypes: string[] };
type Refusal = Problem<"project_not_found" | "oauth_registration_disabled" | "oauth_client_invalid" | "oauth_client_limit_reached">;
type Read = { ok: true; metadata: ClientMetadata; grantTypes: string[]; responseTypes: string[] } | Problem<"oauth_client_invalid">;

/** The RFC 7591 names of the fields whose wire name differs from the console's. */
const RFC_FIELDS: Record<string, string> = { name: "client_name", allowed_scopes: "scope" };
export const rfcFieldName = (field: string) => RFC_FIELDS[field] ?? field;

/** A name for an app that sent none: the host (or scheme) of its first redirect URI, which the consent page can show honestly. */
function fallbackName(redirectUris: string[]): string {
  try {
    const url = new URL(redirectUris[0] ?? "");
    return (url.host || url.protocol.slice(0, -1)).slice(0, 100) || "Unnamed app";
  } catch {
    return "Unnamed app";
  }
}

const invalid = (field: string, message: string) => fail("oauth_client_invalid", { field, message });

/**
 * The request's metadata in the worker's shape, with its grant and response types (RFC 7591 §2
 * defaults; the auth method's default is the caller's: client_secret_basic here, none for a CIMD document).
 */
export function readRegistrationMetadata(
  body: RegistrationRequest,
  offered: readonly string[],
  defaultMethod: TokenEndpointAuthMethod,
): Read {
  const method = body.token_endpoint_auth_method ?? defaultMethod;
  if (!(AUTH_METHODS as readonly string[]).includes(method))
    return invalid("token_endpoint_auth_method", `token_endpoint_auth_method must be one of ${AUTH_METHODS.join(", ")}.`);
  const grantTypes = [...new Set(body.grant_types ?? ["authorization_code"])];
  const unsupported = grantTypes.find((g) => !GRANT_TYPES.includes(g));
  if (unsupported) return invalid("grant_types", `${unsupported} is not supported: use ${GRANT_TYPES.join(" and ")}.`);
  if (!grantTypes.includes("authorization_code")) return invalid("grant_types", "grant_types must include authorization_code.");
  const responseTypes = [...new Set(body.response_types ?? ["code"])];
  if (responseTypes.some((r) => !RESPONSE_TYPES.includes(r))) return invalid("response_types", "only the code response type is supported.");
  // RFC 7591 §2: the server may narrow what is asked for; scopes the project does not offer are dropped (the answer says which remain).
  const asked = body.scope ? body.scope.split(" ").filter(Boolean) : null;
  const allowedScopes = asked === null ? null : asked.filter((s) => offered.includes(s));
  if (asked && allowedScopes?.length === 0) return invalid("scope", `none of the scopes asked for is offered (${offered.join(" ")}).`);
  const metadata: ClientMetadata = {
    name: body.client_name ?? fallbackName(body.redirect_uris),
    clientType: method === "none" ? "public" : "confidential",
    tokenEndpointAuthMethod: method as TokenEndpointAuthMethod,
    redirectUris: body.redirect_uris,
    allowedScopes,
    logoUri: body.logo_uri ?? null,
    clientUri: body.client_uri ?? null,
    policyUri: body.policy_uri ?? null,
    tosUri: body.tos_uri ?? null,
    jwks: body.jwks ?? null,
    jwksUri: body.jwks_uri ?? null,
  };
  return { ok: true, metadata, grantTypes, responseTypes };
}

/** Registers a client from an RFC 7591 request body (unknown members are ignored, as §2 requires). */
export async function registerDynamicClient(
  deps: Deps,
  projectId: string,
  body: RegistrationRequest,
): Promise<{ ok: true; value: DynamicRegistration } | Refusal> {
  const project = await loadProject(deps, projectId);
  if (!project) return fail("project_not_found");
  const provider = renderedConfigOf(project).doorman.oauthProvider;
  if (!provider.enabled || !provider.dynamicRegistration) return fail("oauth_registration_disabled");
  const context = ruleContext(deps, project);
  const read = readRegistrationMetadata(body, context.offeredScopes, "client_secret_basic");
  if (!read.ok) return read;
  const checked = checkClientMetadata(read.metadata, context);
  if (!checked.ok) return fail("oauth_client_invalid", { field: rfcFieldName(checked.field), message: checked.message });
  const { row, secret } = await newClientRow(deps, project.id, "dynamic", checked.value);
  const [inserted] = await deps.db.batch([
    insertDynamicClientStatement(deps.db, row, DYNAMIC_CLIENT_CAP),
    eventIfChangedStatement(deps, project.id, "oauth_client.created", {}, { client_id: row.clientId, source: "dynamic" }),
  ]);
  if (inserted.meta.changes === 0) return fail("oauth_client_limit_reached", { limit: DYNAMIC_CLIENT_CAP });
  return { ok: true, value: { client: row, secret, grantTypes: read.grantTypes, responseTypes: read.responseTypes } };
}
