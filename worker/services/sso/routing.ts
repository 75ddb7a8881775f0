/**
 * Which SSO connection an email's domain routes to (issue 31, FLOW): only a domain VERIFIED by a team
 * routes, to the domain's chosen connection when it is enabled, else to the team's first enabled one.
 * Shared by the lookup, the authorize step (`email=`) and the enforcement of other sign-in methods.
 */
import { findSsoConnection, type SsoConnectionRow } from "../../db/queries/sso-connections";
import { findVerifiedDomainOfEmail, type SsoDomainRow } from "../../db/queries/sso-domains";
import { findFirstEnabledTeamConnection } from "../../db/queries/sso-sign-in";
import type { Deps } from "../deps";

export type EmailRoute = { domain: SsoDomainRow; connection: SsoConnectionRow | null };

/** The verified domain of `email` and its enabled connection (null connection: the team has none enabled); null when unverified. */
export async function routeEmail(deps: Deps, projectId: string, email: string): Promise<EmailRoute | null> {
  const domain = await findVerifiedDomainOfEmail(deps.db, projectId, email.trim());
  if (!domain) return null;
  if (domain.connectionId) {
    const chosen = await findSsoConnection(deps.db, projectId, domain.connectionId);
    if (chosen?.enabled && chosen.teamId === domain.teamId) return { domain, connection: chosen };
  }
  return { domain, connection: await findFirstEnabledTeamConnection(deps.db, projectId, domain.teamId) };
}
