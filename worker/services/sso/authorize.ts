/**
 * GET /auth/sso/authorize (issue 31, FLOW): the SDK's outer request, checked exactly as the OAuth start
 * checks it (services/oauth/authorize.ts: client, scope, PKCE method; every redirect URL against the
 * trusted domains), plus the connection, named or found by the email's verified domain. Then the
 * connection's protocol builds the IdP redirect around a fresh `sso_request` code.
 */
import type { ProjectRow } from "../../db/queries/projects";
import { findSsoConnection, type SsoConnectionRow } from "../../db/queries/sso-connections";
import type { Deps } from "../deps";
import { isTrustedRedirectUrl } from "../hosted-pages/trust";
import { checkOuterClient, type OuterClientCheck, withoutHash } from "../oauth/authorize";
import type { CodeChallengeMethod } from "../oauth/pkce";
import { fail, type Problem } from "../result";
import { type OidcStartResult, startOidcSignIn } from "./oidc/start";
import type { OuterSsoRequest } from "./request";
import { routeEmail } from "./routing";
import { type SamlStartResult, startSamlSignIn } from "./saml/start";

export type SsoAuthorizeInput = {
  clientId: string;
  clientSecret: string | undefined;
  redirectUri: string;
  scope: string;
  state: string;
  grantType: string;
  responseType: string;
  codeChallenge: string;
  codeChallengeMethod: CodeChallengeMethod;
  errorRedirectUrl: string | undefined;
  afterCallbackRedirectUrl: string | undefined;
  /** Exactly one of the two (the route checks it). */
  email: string | undefined;
  connectionId: string | undefined;
};

export type SsoAuthorizeResult =
  | { ok: true; location: string }
  | Exclude<OuterClientCheck, { ok: true }>
  | Exclude<OidcStartResult, { ok: true }>
  | Exclude<SamlStartResult, { ok: true }>
  | Problem<"untrusted_url" | "sso_connection_not_found" | "sso_not_configured_for_email" | "sso_protocol_unsupported">;

export async function startSsoSignIn(deps: Deps, input: SsoAuthorizeInput): Promise<SsoAuthorizeResult> {
  const client = await checkOuterClient(deps, input);
  if (!client.ok) return client;
  const project = client.project;
  // Every URL the browser or a code may be sent to, before anything is stored or the IdP is reached.
  for (const url of [input.redirectUri, input.errorRedirectUrl, input.afterCallbackRedirectUrl]) {
    if (url && !(await isTrustedRedirectUrl(deps, project, url))) return fail("untrusted_url");
  }
  const connection = await connectionOf(deps, project, input);
  if (!connection.ok) return connection;

  const outer: OuterSsoRequest = {
    connection_id: connection.row.id,
    redirect_uri: withoutHash(input.redirectUri),
    state: input.state,
    scope: input.scope,
    grant_type: input.grantType,
    response_type: input.responseType,
    code_challenge: input.codeChallenge,
    code_challenge_method: input.codeChallengeMethod,
    error_redirect_url: input.errorRedirectUrl ?? null,
    after_callback_redirect_url: input.afterCallbackRedirectUrl ?? null,
  };
  switch (connection.row.protocol) {
    case "oidc":
      return startOidcSignIn(deps, project, connection.row, outer);
    case "saml":
      return startSamlSignIn(deps, project, connection.row, outer);
    default:
      return fail("sso_protocol_unsupported", { protocol: String(connection.row.protocol) });
  }
}

/** The named connection (enabled, this project's), or the one the email's verified domain routes to. */
async function connectionOf(
  deps: Deps,
  project: ProjectRow,
  input: Pick<SsoAuthorizeInput, "email" | "connectionId">,
): Promise<{ ok: true; row: SsoConnectionRow } | Problem<"sso_connection_not_found" | "sso_not_configured_for_email">> {
  if (input.connectionId) {
    const row = await findSsoConnection(deps.db, project.id, input.connectionId);
    if (!row?.enabled) return fail("sso_connection_not_found", { connectionId: input.connectionId });
    return { ok: true, row };
  }
  const route = input.email ? await routeEmail(deps, project.id, input.email) : null;
  if (!route?.connection) return fail("sso_not_configured_for_email");
  return { ok: true, row: route.connection };
}
