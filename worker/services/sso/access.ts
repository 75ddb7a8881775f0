/**
 * Who may manage a team's enterprise SSO (issue 31, ADMIN): a back end (server key, admin key,
 * owner session) any team's; a signed-in member holding `$update_team` their team's; a setup link's
 * token its one team's, until it expires. A connection or domain of a team the caller may not
 * manage is answered as not found, so ids of other teams' connections reveal nothing.
 */
import { sha256Hex } from "../../crypto/hash";
import type { SsoConnectionRow } from "../../db/queries/sso-connections";
import { findSsoConnection } from "../../db/queries/sso-connections";
import { findSsoDomain, type SsoDomainRow } from "../../db/queries/sso-domains";
import { findLiveSsoSetupLink } from "../../db/queries/sso-setup-links";
import { findTeam } from "../../db/queries/teams";
import type { TeamRow } from "../../db/queries/users";
import type { Deps } from "../deps";
import { fail, type Problem } from "../result";
import { checkTeamAccess, type TeamAccessProblem } from "../teams";

export type SsoManager =
  | { kind: "backend" }
  | { kind: "member"; userId: string }
  | { kind: "setup_link"; linkId: string; teamId: string; expiresAt: number };

export type SsoAccessProblem = TeamAccessProblem | Problem<"sso_setup_link_invalid">;

/** The manager a setup link's token stands for, if it is a live link of this project. */
export async function setupLinkManager(
  deps: Deps,
  projectId: string,
  token: string,
): Promise<{ ok: true; manager: Extract<SsoManager, { kind: "setup_link" }> } | Problem<"sso_setup_link_invalid">> {
  // Looked up by its SHA-256: the token itself is never stored (224 random bits, so a fast hash is enough).
  const link = token.length <= 128 ? await findLiveSsoSetupLink(deps.db, projectId, await sha256Hex(token), deps.now()) : null;
  if (!link) return fail("sso_setup_link_invalid");
  return { ok: true, manager: { kind: "setup_link", linkId: link.id, teamId: link.teamId, expiresAt: link.expiresAt } };
}

/** The team, if `manager` may manage its SSO. */
export async function checkSsoTeamAccess(
  deps: Deps,
  projectId: string,
  teamId: string,
  manager: SsoManager,
): Promise<{ ok: true; team: TeamRow } | SsoAccessProblem> {
  if (manager.kind === "backend") return checkTeamAccess(deps, projectId, teamId, { kind: "backend" });
  if (manager.kind === "member")
    return checkTeamAccess(deps, projectId, teamId, { kind: "client", userId: manager.userId }, "$update_team");
  // A setup link is scoped to the one team it was made for: any other team is refused.
  if (manager.teamId !== teamId) return fail("sso_setup_link_invalid");
  const team = await findTeam(deps.db, projectId, teamId);
  return team ? { ok: true, team } : fail("team_not_found", { teamId });
}

/** Hides a team the caller cannot see behind `notFound`; a member lacking the permission still hears why. */
function hideForeignTeam<P extends Problem>(access: SsoAccessProblem, notFound: P): SsoAccessProblem | P {
  if (access.reason === "team_permission_required") return access;
  return notFound;
}

/** A connection of the project the manager may manage. */
export async function loadManagedConnection(
  deps: Deps,
  projectId: string,
  connectionId: string,
  manager: SsoManager,
): Promise<{ ok: true; connection: SsoConnectionRow; team: TeamRow } | SsoAccessProblem | Problem<"sso_admin_connection_not_found">> {
  const notFound = fail("sso_admin_connection_not_found", { connectionId });
  const connection = await findSsoConnection(deps.db, projectId, connectionId);
  if (!connection) return notFound;
  const access = await checkSsoTeamAccess(deps, projectId, connection.teamId, manager);
  if (!access.ok) return hideForeignTeam(access, notFound);
  return { ok: true, connection, team: access.team };
}

/** A domain claim of the project the manager may manage. */
export async function loadManagedDomain(
  deps: Deps,
  projectId: string,
  domainId: string,
  manager: SsoManager,
): Promise<{ ok: true; domain: SsoDomainRow; team: TeamRow } | SsoAccessProblem | Problem<"sso_domain_not_found">> {
  const notFound = fail("sso_domain_not_found", { domainId });
  const domain = await findSsoDomain(deps.db, projectId, domainId);
  if (!domain) return notFound;
  const access = await checkSsoTeamAccess(deps, projectId, domain.teamId, manager);
  if (!access.ok) return hideForeignTeam(access, notFound);
  return { ok: true, domain, team: access.team };
}

/** What an event records about who acted beyond the request's actor: the setup link, when one was used. */
export function managerEventData(manager: SsoManager): Record<string, unknown> {
  return manager.kind === "setup_link" ? { setup_link_id: manager.linkId } : {};
}
