/**
 * The `sso_request` code (issue 31, FLOW): a started SSO sign-in, one-time, 10 minutes, stored hashed
 * as a verification code. Its code is the SAML RelayState / the OIDC `state`; its data is the SDK's
 * outer request (as the OAuth start's OuterInfo) plus the connection and the protocol's specifics.
 */
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import type { CodeChallengeMethod } from "../oauth/pkce";
import { fail, type Problem } from "../result";
import { issueCode, redeemCode, spendCheckedCode } from "../verification-codes";

export const SSO_REQUEST_TTL_MS = 10 * 60 * 1000;

export type SsoRequestData = {
  connection_id: string;
  protocol: "saml" | "oidc";
  redirect_uri: string;
  state: string;
  scope: string;
  grant_type: string;
  response_type: string;
  code_challenge: string;
  code_challenge_method: CodeChallengeMethod;
  error_redirect_url: string | null;
  after_callback_redirect_url: string | null;
  /** SAML: the AuthnRequest's ID (the response's InResponseTo must equal it). */
  saml_request_id?: string;
  /** OIDC: the nonce the ID token must carry. */
  oidc_nonce?: string;
  /** OIDC: our PKCE verifier toward the IdP, sealed (a secret until the token exchange). */
  oidc_verifier_sealed?: string;
};

/** The outer request, without the protocol's own fields (what the start hands to a protocol). */
export type OuterSsoRequest = Omit<SsoRequestData, "protocol" | "saml_request_id" | "oidc_nonce" | "oidc_verifier_sealed">;

/** Stores a started sign-in; the returned code goes to the IdP as RelayState / state. */
export async function issueSsoRequest(deps: Deps, projectId: string, data: SsoRequestData): Promise<string> {
  const issued = await issueCode(deps, projectId, "sso_request", data, SSO_REQUEST_TTL_MS);
  return issued.code;
}

/**
 * Uses up the request `code` of `connectionId`: once only (a replayed RelayState / state is refused),
 * and only for the connection it was started for.
 */
export async function takeSsoRequest(
  deps: Deps,
  project: ProjectRow,
  connectionId: string,
  code: string,
): Promise<{ ok: true; request: SsoRequestData } | Problem<"sso_request_invalid">> {
  if (!/^[0-9a-z]{45}$/i.test(code)) return fail("sso_request_invalid");
  const peek = await redeemCode(deps, project.id, "sso_request", code, false);
  if (!peek.ok) return fail("sso_request_invalid");
  const request = peek.row.data as SsoRequestData;
  // A request started for another connection must not complete here (a mixed-up or swapped RelayState).
  if (request.connection_id !== connectionId) return fail("sso_request_invalid");
  const used = await spendCheckedCode(deps, peek.row);
  if (!used.ok) return fail("sso_request_invalid");
  return { ok: true, request };
}
