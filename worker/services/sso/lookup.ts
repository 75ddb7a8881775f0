/**
 * GET /auth/sso/lookup (issue 31, FLOW): whether an email signs in with enterprise SSO, for the sign-in
 * page's SSO step. It names the connection (to start it) and whether the domain enforces SSO, never
 * the team: a domain's owner is the team's business.
 */
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { routeEmail } from "./routing";

export type SsoLookup = { connection_id: string | null; display_name: string | null; enforced: boolean };

export async function lookupSso(deps: Deps, project: ProjectRow, email: string): Promise<SsoLookup> {
  const route = await routeEmail(deps, project.id, email);
  if (!route?.connection) return { connection_id: null, display_name: null, enforced: route?.domain.enforceSso ?? false };
  return { connection_id: route.connection.id, display_name: route.connection.displayName, enforced: route.domain.enforceSso };
}
