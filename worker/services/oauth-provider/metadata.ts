/**
 * The provider's metadata document: OpenID Connect Discovery 1.0 §3 and RFC 8414 §2 (one document
 * for both well-known names). Everything a Basic OP announces, plus RFC 9207's `iss` response
 * parameter, RFC 7009/7662 endpoints, and the registration features the owner turned on.
 */
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { CLIENT_ASSERTION_ALGORITHMS } from "./client-assertion";
import { ACR_MULTI_FACTOR } from "./id-token";
import { endpointUrl, issuerOf, offeredScopes, providerConfigOf } from "./provider";

const AUTH_METHODS = ["client_secret_basic", "client_secret_post", "private_key_jwt", "none"];
/** Introspection is for confidential clients (and the project's server key): no "none". */
const INTROSPECTION_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "private_key_jwt"];

/** The claims ID tokens and userinfo can carry. */
export const CLAIMS_SUPPORTED = [
  "iss",
  "sub",
  "aud",
  "exp",
  "iat",
  "auth_time",
  "nonce",
  "acr",
  "amr",
  "azp",
  "at_hash",
  "name",
  "picture",
  "email",
  "email_verified",
  "team_id",
];

export function providerMetadata(deps: Deps, project: ProjectRow): Record<string, unknown> {
  const config = providerConfigOf(project);
  const url = (endpoint: Parameters<typeof endpointUrl>[2]) => endpointUrl(deps, project.id, endpoint);
  return {
    issuer: issuerOf(deps, project.id),
    authorization_endpoint: url("authorization"),
    token_endpoint: url("token"),
    userinfo_endpoint: url("userinfo"),
    jwks_uri: url("jwks"),
    ...(config.dynamicRegistration ? { registration_endpoint: url("registration") } : {}),
    revocation_endpoint: url("revocation"),
    introspection_endpoint: url("introspection"),
    scopes_supported: offeredScopes(config),
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["ES256"],
    token_endpoint_auth_methods_supported: AUTH_METHODS,
    token_endpoint_auth_signing_alg_values_supported: CLIENT_ASSERTION_ALGORITHMS,
    revocation_endpoint_auth_methods_supported: AUTH_METHODS,
    revocation_endpoint_auth_signing_alg_values_supported: CLIENT_ASSERTION_ALGORITHMS,
    introspection_endpoint_auth_methods_supported: INTROSPECTION_AUTH_METHODS,
    introspection_endpoint_auth_signing_alg_values_supported: CLIENT_ASSERTION_ALGORITHMS,
    code_challenge_methods_supported: ["S256"],
    claims_supported: CLAIMS_SUPPORTED,
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    prompt_values_supported: ["none", "login", "consent", "select_account"],
    acr_values_supported: [ACR_MULTI_FACTOR],
    authorization_response_iss_parameter_supported: true,
    ...(config.clientIdMetadataDocuments ? { client_id_metadata_document_supported: true } : {}),
  };
}
