/**
 * GET /auth/sso/oidc/{connection_id}/callback (issue 31, FLOW): the customer's IdP returns here with
 * `code` and `state` (the sso_request code). The request is used up FIRST (a replayed state never
 * reaches the token endpoint), then the code is exchanged with our PKCE verifier, the ID token
 * validated (id-token.ts, with the request's nonce), its claims mapped, and the shared sign-in step
 * (services/sso/sign-in.ts) issues the SDK's outer code.
 */
import { openSealed } from "../../../crypto/at-rest";
import { findSsoConnectionById } from "../../../db/queries/sso-connections";
import type { Deps } from "../../deps";
import { isTrustedRedirectUrl } from "../../hosted-pages/trust";
import { allowsLocalUrls } from "../../oauth-provider/client-rules";
import { fail, type Problem } from "../../result";
import { loadProject } from "../../seed";
import { takeSsoRequest } from "../request";
import { registeredAmr } from "../session-origin";
import { type FinishSsoResult, finishSsoRequest, recordSsoRefusal } from "../sign-in";
import { profileFromClaims } from "./claims";
import { discoverIssuer } from "./discovery";
import { verifyOidcIdToken } from "./id-token";
import { oidcConfigOf, oidcRedirectUri } from "./start";
import { exchangeOidcCode } from "./token";

export type OidcCallbackInput = { connectionId: string; state: string; code: string | undefined; error: string | undefined };

type IdpProblem = Problem<"sso_idp_error" | "sso_idp_unavailable">;
export type OidcCallbackResult =
  | FinishSsoResult
  | Problem<"sso_connection_not_found" | "sso_request_invalid" | "untrusted_url">
  | (IdpProblem & { errorRedirectUrl: string });

export async function completeOidcCallback(deps: Deps, input: OidcCallbackInput): Promise<OidcCallbackResult> {
  const connection = await findSsoConnectionById(deps.db, input.connectionId);
  const project = connection?.protocol === "oidc" && connection.enabled ? await loadProject(deps, connection.projectId) : null;
  if (!connection || !project) return fail("sso_connection_not_found", { connectionId: input.connectionId });
  const taken = await takeSsoRequest(deps, project, connection.id, input.state);
  if (!taken.ok) {
    await recordSsoRefusal(deps, connection, "request_invalid");
    return taken;
  }
  const request = taken.request;
  const errorRedirectUrl = request.error_redirect_url ?? request.redirect_uri;
  // The error URL is checked before anything is sent to it (as the OAuth callback does).
  if (!(await isTrustedRedirectUrl(deps, project, errorRedirectUrl))) return fail("untrusted_url");
  const refused = async (problem: IdpProblem, reason: string) => {
    console.warn(`SSO connection ${connection.id}: ${problem.detail}`);
    await recordSsoRefusal(deps, connection, reason);
    return { ...problem, errorRedirectUrl };
  };

  if (input.error || !input.code)
    return refused(fail("sso_idp_error", { detail: `the IdP answered ${input.error ?? "no code"}` }), "idp_error");
  const config = oidcConfigOf(connection);
  const verifier = request.oidc_verifier_sealed ? await openSealed(deps.tokenKeys, request.oidc_verifier_sealed) : null;
  if (!config || !verifier || !request.oidc_nonce)
    return refused(fail("sso_idp_error", { detail: "the connection or the request is incomplete" }), "config_invalid");
  const clientSecret = config.clientSecretSealed ? await openSealed(deps.tokenKeys, config.clientSecretSealed) : null;
  if (config.clientSecretSealed && !clientSecret)
    return refused(fail("sso_idp_error", { detail: "the client secret cannot be opened" }), "config_invalid");

  const found = await discoverIssuer(deps, config.issuer, allowsLocalUrls(deps.config.environment, project));
  if (!found.ok)
    return refused(
      found.kind === "unavailable"
        ? fail("sso_idp_unavailable", { detail: found.message })
        : fail("sso_idp_error", { detail: found.message }),
      "discovery_failed",
    );
  const client = { clientId: config.clientId, clientSecret, redirectUri: oidcRedirectUri(deps, connection.id) };
  const exchanged = await exchangeOidcCode(deps, found.discovery, client, { code: input.code, verifier });
  if (!exchanged.ok)
    return refused(
      exchanged.kind === "unavailable"
        ? fail("sso_idp_unavailable", { detail: exchanged.message })
        : fail("sso_idp_error", { detail: exchanged.message }),
      "token_exchange_failed",
    );
  const checked = await verifyOidcIdToken(deps, exchanged.idToken, {
    discovery: found.discovery,
    clientId: config.clientId,
    clientSecret,
    nonce: request.oidc_nonce,
  });
  if (!checked.ok)
    return refused(
      checked.kind === "unavailable"
        ? fail("sso_idp_unavailable", { detail: checked.message })
        : fail("sso_idp_error", { detail: checked.message }),
      "id_token_invalid",
    );
  return finishSsoRequest(deps, {
    project,
    connection,
    profile: profileFromClaims(checked.claims, config.attributeMapping),
    request,
    // The upstream authentication methods, registered values only (services/sso/session-origin.ts).
    amr: registeredAmr(checked.claims.amr),
  });
}
