/** The SP metadata of a connection by id (issue 31): enabled SAML connections only, else not found. */
import { findSsoConnectionById } from "../../../db/queries/sso-connections";
import type { Deps } from "../../deps";
import { fail, type Problem } from "../../result";
import { samlConfigOf } from "./config";
import { buildSpMetadata } from "./sp-metadata";

export async function samlSpMetadata(
  deps: Deps,
  connectionId: string,
): Promise<{ ok: true; xml: string } | Problem<"sso_connection_not_found">> {
  const connection = await findSsoConnectionById(deps.db, connectionId);
  const config = connection?.enabled ? samlConfigOf(connection) : null;
  if (!connection || !config) return fail("sso_connection_not_found", { connectionId });
  return { ok: true, xml: buildSpMetadata(deps, connection, { signAuthnRequests: config.signAuthnRequests }) };
}
