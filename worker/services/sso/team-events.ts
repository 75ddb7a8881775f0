/**
 * A team's enterprise SSO log (issue 31, ADMIN): the events of the "Enterprise SSO" area recorded
 * for the team (connection and domain changes, setup links, SSO sign-ins, SCIM operations), newest
 * first, for the team's admins as well as the project's owners.
 */
import { EVENT_AREAS } from "@doorman/shared/event-types";
import type { EventRow } from "../../db/queries/events";
import type { Deps } from "../deps";
import { listEvents } from "../events";
import { checkSsoTeamAccess, type SsoAccessProblem, type SsoManager } from "./access";

const SSO_EVENT_TYPES: readonly string[] = EVENT_AREAS.find((a) => a.area === "Enterprise SSO")?.types ?? [];

export async function listTeamSsoEvents(
  deps: Deps,
  projectId: string,
  teamId: string,
  manager: SsoManager,
  page: { cursor?: string; limit: number },
): Promise<{ ok: true; value: { items: EventRow[]; nextCursor: string | null } | null } | SsoAccessProblem> {
  const access = await checkSsoTeamAccess(deps, projectId, teamId, manager);
  if (!access.ok) return access;
  return { ok: true, value: await listEvents(deps, projectId, { type: SSO_EVENT_TYPES, teamId, ...page }) };
}
