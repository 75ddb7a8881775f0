/**
 * The end of every SSO sign-in (issue 31, FLOW; the junction of docs/enterprise-sso.md): a protocol
 * (SAML ACS, OIDC callback) verified what its IdP sent and hands over an SsoProfile. This step checks
 * the started request (one-time, this connection's, SAML InResponseTo), resolves the user
 * (user-resolution.ts), and ends exactly like the OAuth callback (services/oauth/callback.ts): an
 * `oauth_authorization_code` for the SDK's redirect URI, which POST /auth/oauth/token exchanges
 * unchanged (the session and its `sso.signed_in` event are made there, in one batch).
 *
 * IdP-initiated (unsolicited SAML) responses never sign in here: when the connection allows them, the
 * browser is bounced to the project's hosted sign-in page with `?sso_connection_id=`, which starts an
 * SP-initiated sign-in at once (no login CSRF through unsolicited responses; PKCE stays the only way
 * a session is made).
 */
import { hostedHandlerUrl } from "@doorman/shared/hosted-pages";
import { SSO_CONNECTION_QUERY_PARAM } from "@doorman/shared/wire-sso";
import { findCustomDomainOfProject } from "../../db/queries/custom-domains";
import type { ProjectRow } from "../../db/queries/projects";
import type { SsoConnectionRow } from "../../db/queries/sso-connections";
import type { Deps } from "../deps";
import { eventStatement } from "../events";
import { hostedPagesOrigin, isTrustedRedirectUrl } from "../hosted-pages/trust";
import { AUTHORIZATION_CODE_TTL_MS } from "../oauth/callback";
import { fail, type Problem } from "../result";
import { issueCode } from "../verification-codes";
import { type SsoRequestData, takeSsoRequest } from "./request";
import type { SsoSignInOrigin } from "./session-origin";
import type { SsoProfile } from "./types";
import { resolveSsoUser, type SsoUserResult } from "./user-resolution";

export type FinishSsoInput = {
  project: ProjectRow;
  connection: SsoConnectionRow;
  profile: SsoProfile;
  /** The RelayState / OIDC state (the sso_request code); null for an IdP-initiated SAML response. */
  requestCode: string | null;
  /** SAML InResponseTo (must equal the request's saml_request_id); null when IdP-initiated or OIDC. */
  inResponseTo: string | null;
  idpInitiated: boolean;
  /** The session's amr (RFC 8176 values; services/sso/session-origin.ts): OIDC's filtered `amr`, SAML's mapped AuthnContextClassRef. */
  amr?: string[];
};

type BeforeRequest = Problem<"sso_request_invalid" | "sso_idp_initiated_refused" | "sso_connection_not_found" | "untrusted_url">;
type AfterRequest = Exclude<SsoUserResult, { ok: true }>;

export type FinishSsoResult =
  | { ok: true; location: string }
  | BeforeRequest
  /** Problems once the request is known: rendered as a redirect to its error URL (as the OAuth callback does). */
  | (AfterRequest & { errorRedirectUrl: string });

export async function finishSsoSignIn(deps: Deps, input: FinishSsoInput): Promise<FinishSsoResult> {
  const { project, connection } = input;
  if (!connection.enabled || connection.projectId !== project.id) return fail("sso_connection_not_found", { connectionId: connection.id });
  if (input.idpInitiated) return bounceIdpInitiated(deps, project, connection);
  if (!input.requestCode) {
    await recordSsoRefusal(deps, connection, "request_missing");
    return fail("sso_request_invalid");
  }
  const taken = await takeSsoRequest(deps, project, connection.id, input.requestCode);
  if (!taken.ok) {
    await recordSsoRefusal(deps, connection, "request_invalid");
    return taken;
  }
  // SAML: the response must answer the AuthnRequest this request sent (InResponseTo), not another one.
  if (connection.protocol === "saml" && (!taken.request.saml_request_id || taken.request.saml_request_id !== input.inResponseTo)) {
    await recordSsoRefusal(deps, connection, "in_response_to_mismatch");
    return fail("sso_request_invalid");
  }
  return finishSsoRequest(deps, { project, connection, profile: input.profile, request: taken.request, amr: input.amr ?? [] });
}

/**
 * The rest of the sign-in once the request is taken (the OIDC callback takes it itself, before its
 * token exchange, so a replayed state never reaches the IdP's token endpoint).
 */
export async function finishSsoRequest(
  deps: Deps,
  input: { project: ProjectRow; connection: SsoConnectionRow; profile: SsoProfile; request: SsoRequestData; amr: string[] },
): Promise<FinishSsoResult> {
  const { project, connection, request } = input;
  // Every URL the browser (and a code) goes to must be the project's own by its trusted domains now, as at the OAuth callback.
  for (const url of [request.redirect_uri, request.error_redirect_url, request.after_callback_redirect_url]) {
    if (url && !(await isTrustedRedirectUrl(deps, project, url))) return fail("untrusted_url");
  }
  const errorRedirectUrl = request.error_redirect_url ?? request.redirect_uri;
  const resolved = await resolveSsoUser(deps, project, connection, input.profile);
  if (!resolved.ok) {
    await recordSsoRefusal(deps, connection, resolved.reason);
    return { ...resolved, errorRedirectUrl };
  }
  const sso: SsoSignInOrigin = {
    connection_id: connection.id,
    team_id: connection.teamId,
    protocol: connection.protocol,
    idp_initiated: false,
    is_new_user: resolved.isNewUser,
    joined_team: resolved.joinedTeam,
    amr: input.amr,
  };
  // The outer code exactly as the OAuth callback issues it (purpose, data, 5 minutes), so the SDK exchanges it unchanged.
  const code = await issueCode(
    deps,
    project.id,
    "oauth_authorization_code",
    {
      user_id: resolved.userId,
      redirect_uri: request.redirect_uri,
      code_challenge: request.code_challenge,
      code_challenge_method: request.code_challenge_method,
      is_new_user: resolved.isNewUser,
      provider: `sso:${connection.id}`,
      after_callback_redirect_url: request.after_callback_redirect_url,
      sso,
    },
    AUTHORIZATION_CODE_TTL_MS,
  );
  const location = new URL(request.redirect_uri);
  location.searchParams.set("code", code.code);
  location.searchParams.set("state", request.state);
  return { ok: true, location: location.toString() };
}

/** An unsolicited response: to the hosted sign-in page, which starts an SP-initiated sign-in for the connection. */
async function bounceIdpInitiated(deps: Deps, project: ProjectRow, connection: SsoConnectionRow): Promise<FinishSsoResult> {
  if (!connection.allowIdpInitiated) {
    await recordSsoRefusal(deps, connection, "idp_initiated_not_allowed");
    return fail("sso_idp_initiated_refused");
  }
  const customDomain = await findCustomDomainOfProject(deps.db, project.id);
  const page = customDomain ? `https://${customDomain}/handler/sign-in` : hostedHandlerUrl(hostedPagesOrigin(deps), project.id, "sign-in");
  const location = new URL(page);
  location.searchParams.set(SSO_CONNECTION_QUERY_PARAM, connection.id);
  return { ok: true, location: location.toString() };
}

/**
 * `sso.sign_in_refused` for the connection's team: the reason is a short tag (never what the IdP
 * sent), so a team's admins can see failing sign-ins without the log.
 */
export async function recordSsoRefusal(deps: Deps, connection: SsoConnectionRow, reason: string): Promise<void> {
  await eventStatement(
    deps,
    connection.projectId,
    "sso.sign_in_refused",
    { teamId: connection.teamId },
    { connection_id: connection.id, protocol: connection.protocol, reason },
  );
}
