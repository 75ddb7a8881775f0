/**
 * The OIDC connection's start (issue 31, FLOW; OpenID Connect Core §3.1.2.1): discovery of the
 * customer's issuer, then the authorization URL with PKCE S256, a nonce, and `state` = the sso_request
 * code (which keeps the nonce and our PKCE verifier, sealed, until the callback).
 */
import { SSO_PATHS } from "@doorman/shared/wire-sso";
import { encryptAtRest } from "../../../crypto/at-rest";
import type { ProjectRow } from "../../../db/queries/projects";
import type { SsoConnectionRow } from "../../../db/queries/sso-connections";
import type { Deps } from "../../deps";
import { s256Challenge } from "../../oauth/pkce";
import { allowsLocalUrls } from "../../oauth-provider/client-rules";
import { fail, type Problem } from "../../result";
import { type OidcConnectionConfig, oidcConnectionConfigSchema } from "../connection-config";
import { issueSsoRequest, type OuterSsoRequest } from "../request";
import { discoverIssuer } from "./discovery";

export type OidcStartResult = { ok: true; location: string } | Problem<"sso_idp_error" | "sso_idp_unavailable">;

/** Doorman's redirect URI at the customer's IdP for this connection (registered there by the IT admin). */
export function oidcRedirectUri(deps: Deps, connectionId: string): string {
  return `${deps.apiUrl}/api/v1${SSO_PATHS.oidcCallback(connectionId)}`;
}

/** The connection's OIDC settings, or null when the stored config does not parse (answered as the IdP's error). */
export function oidcConfigOf(connection: SsoConnectionRow): OidcConnectionConfig | null {
  if (connection.protocol !== "oidc") return null;
  const parsed = oidcConnectionConfigSchema.safeParse(connection.config);
  return parsed.success ? parsed.data : null;
}

export async function startOidcSignIn(
  deps: Deps,
  project: ProjectRow,
  connection: SsoConnectionRow,
  outer: OuterSsoRequest,
): Promise<OidcStartResult> {
  const config = oidcConfigOf(connection);
  if (!config) return fail("sso_idp_error", { detail: "the connection's OIDC config is invalid" });
  const found = await discoverIssuer(deps, config.issuer, allowsLocalUrls(deps.config.environment, project));
  if (!found.ok) {
    console.warn(`SSO connection ${connection.id}: ${found.message}`);
    return found.kind === "unavailable"
      ? fail("sso_idp_unavailable", { detail: found.message })
      : fail("sso_idp_error", { detail: found.message });
  }
  const verifier = deps.random.code(64);
  // The nonce binds the ID token to this request (Core §3.1.2.1); the verifier, to this browser's code (RFC 7636).
  const nonce = deps.random.code(32);
  const state = await issueSsoRequest(deps, project.id, {
    ...outer,
    protocol: "oidc",
    oidc_nonce: nonce,
    oidc_verifier_sealed: await encryptAtRest(deps.tokenKeys.secret, verifier),
  });
  const url = new URL(found.discovery.authorizationEndpoint);
  const scopes = [...new Set(["openid", "email", "profile", ...config.scopes])];
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", config.clientId);
  url.searchParams.set("redirect_uri", oidcRedirectUri(deps, connection.id));
  url.searchParams.set("scope", scopes.join(" "));
  url.searchParams.set("state", state);
  url.searchParams.set("nonce", nonce);
  url.searchParams.set("code_challenge", await s256Challenge(verifier));
  url.searchParams.set("code_challenge_method", "S256");
  return { ok: true, location: url.toString() };
}
