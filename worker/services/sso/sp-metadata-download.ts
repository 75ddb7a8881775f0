/**
 * A SAML connection's SP metadata for its managers to download (issue 31, ADMIN): the same XML the
 * public metadata URL serves (saml/sp-metadata.ts), also for a draft, whose public URL answers
 * nothing until the connection is complete and enabled, so the IdP can be set up first.
 */
import type { Deps } from "../deps";
import { fail, type Problem } from "../result";
import { loadManagedConnection, type SsoAccessProblem, type SsoManager } from "./access";
import { readSamlDraft, type SettingsProblem } from "./connection-settings";
import { buildSpMetadata } from "./saml/sp-metadata";

export async function downloadSpMetadata(
  deps: Deps,
  projectId: string,
  connectionId: string,
  manager: SsoManager,
): Promise<{ ok: true; value: string } | SsoAccessProblem | SettingsProblem | Problem<"sso_admin_connection_not_found">> {
  const loaded = await loadManagedConnection(deps, projectId, connectionId, manager);
  if (!loaded.ok) return loaded;
  const { connection } = loaded;
  if (connection.protocol !== "saml")
    return fail("sso_connection_invalid_config", {
      field: "protocol",
      message: "an OIDC connection has no SAML metadata: give the IdP its redirect URI.",
    });
  return { ok: true, value: buildSpMetadata(deps, connection, { signAuthnRequests: readSamlDraft(connection.config).signAuthnRequests }) };
}
