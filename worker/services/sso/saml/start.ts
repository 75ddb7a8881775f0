/**
 * Starts a SAML sign-in for /auth/sso/authorize (issue 31): a fresh AuthnRequest ID kept in the
 * `sso_request` (the response's InResponseTo must equal it), whose code travels as the RelayState.
 */
import type { ProjectRow } from "../../../db/queries/projects";
import type { SsoConnectionRow } from "../../../db/queries/sso-connections";
import type { Deps } from "../../deps";
import { fail, type Problem } from "../../result";
import { issueSsoRequest, type OuterSsoRequest } from "../request";
import { samlConfigOf } from "./config";
import { buildSamlLoginUrl } from "./login";

export type SamlStartResult = { ok: true; location: string } | Problem<"sso_idp_error">;

export async function startSamlSignIn(
  deps: Deps,
  project: ProjectRow,
  connection: SsoConnectionRow,
  outer: OuterSsoRequest,
): Promise<SamlStartResult> {
  const config = samlConfigOf(connection);
  if (!config) return fail("sso_idp_error", { detail: "the connection's SAML config is invalid" });
  if (config.signAuthnRequests && !connection.spPrivateKeySealed)
    return fail("sso_idp_error", { detail: "the connection has no SP key to sign with" });
  // An xs:ID (an NCName: it may not start with a digit), unguessable so a response cannot be prepared for it.
  const requestId = `_${deps.random.code(40)}`;
  const relayState = await issueSsoRequest(deps, project.id, { ...outer, protocol: "saml", saml_request_id: requestId });
  return { ok: true, location: await buildSamlLoginUrl(deps, project, connection, { requestId, relayState }) };
}
