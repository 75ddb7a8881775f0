/**
 * The Assertion Consumer Service (issue 31): the connection (enabled, SAML), the response verified
 * (verify.ts), then FLOW's finishSsoSignIn: a solicited response must answer the request its RelayState
 * names (InResponseTo); an unsolicited one (no InResponseTo) is IdP-initiated and bounced by FLOW into an
 * SP-initiated sign-in when the connection allows it. A refusal writes `sso.sign_in_refused` with its reason.
 */
import { findSsoConnectionById } from "../../../db/queries/sso-connections";
import type { Deps } from "../../deps";
import { fail, type Problem } from "../../result";
import { loadProjectCached } from "../../seed";
import { type FinishSsoResult, finishSsoSignIn, recordSsoRefusal } from "../sign-in";
import { verifySamlResponse } from "./verify";

export type SamlAcsResult = FinishSsoResult | Problem<"saml_response_invalid" | "sso_connection_not_found">;

export async function completeSamlAcs(
  deps: Deps,
  input: { connectionId: string; samlResponse: string; relayState: string | null },
): Promise<SamlAcsResult> {
  const connection = await findSsoConnectionById(deps.db, input.connectionId);
  if (!connection?.enabled || connection.protocol !== "saml") return fail("sso_connection_not_found", { connectionId: input.connectionId });
  const project = await loadProjectCached(deps, connection.projectId);
  if (!project) return fail("sso_connection_not_found", { connectionId: input.connectionId });
  const verified = await verifySamlResponse(deps, connection, input.samlResponse);
  if (!verified.ok) {
    console.warn(`SAML response refused for SSO connection ${connection.id}: ${verified.reason}: ${verified.detail}`);
    await recordSsoRefusal(deps, connection, verified.reason);
    return fail("saml_response_invalid", { why: verified.reason });
  }
  const idpInitiated = verified.inResponseTo === null;
  return finishSsoSignIn(deps, {
    project,
    connection,
    profile: verified.profile,
    // An unsolicited response's RelayState (if any) is the IdP's, not a request of ours.
    requestCode: idpInitiated ? null : input.relayState || null,
    inResponseTo: verified.inResponseTo,
    idpInitiated,
    amr: verified.amr,
  });
}
