/** A SAML connection's settings and SP key, read from its row (issue 31). */
import { openSealed } from "../../../crypto/at-rest";
import type { SsoConnectionRow } from "../../../db/queries/sso-connections";
import type { Deps } from "../../deps";
import { type SamlConnectionConfig, samlConnectionConfigSchema } from "../connection-config";
import { pemToDer } from "./pem";
import { SP_KEY_SEAL_CONTEXT } from "./sp-keys";

/** The connection's SAML settings; null when it is not a SAML connection or its stored config does not parse. */
export function samlConfigOf(connection: SsoConnectionRow): SamlConnectionConfig | null {
  if (connection.protocol !== "saml") return null;
  const parsed = samlConnectionConfigSchema.safeParse(connection.config);
  return parsed.success ? parsed.data : null;
}

/** The connection's SP private key (PKCS#8 DER), unsealed; null when it has none or it does not open. */
export async function spPrivateKeyOf(deps: Deps, connection: SsoConnectionRow): Promise<Uint8Array<ArrayBuffer> | null> {
  if (!connection.spPrivateKeySealed) return null;
  const pem = await openSealed(deps.tokenKeys, connection.spPrivateKeySealed, SP_KEY_SEAL_CONTEXT);
  return pem ? pemToDer(pem, "PRIVATE KEY") : null;
}
