/** A SAML connection's SP URLs (issue 31): its entity ID (the metadata URL) and its Assertion Consumer Service. */
import { SSO_PATHS, samlSpEntityId } from "@doorman/shared/wire-sso";
import type { Deps } from "../../deps";

export function spEntityIdOf(deps: Deps, connectionId: string): string {
  return samlSpEntityId(deps.apiUrl, connectionId);
}

export function acsUrlOf(deps: Deps, connectionId: string): string {
  return `${deps.apiUrl}/api/v1${SSO_PATHS.samlAcs(connectionId)}`;
}
