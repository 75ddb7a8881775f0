/**
 * The data of the team detail page, loaded through the owner's admin app: the team, its members
 * (with name and email), their direct team permissions, the team permission definitions, and the
 * open invitations. Each part can be re-read after a change.
 */

import type { PermissionDefinition, ServerTeam, ServerTeamUser, TeamInvitation, TeamMemberPermission } from "@doorman/sdk";
import { useCallback, useEffect, useState } from "react";
import type { OwnedProject } from "../../lib/dashboard-types";
import { errorMessage } from "../../lib/project-context";

export type TeamData = {
  team: ServerTeam;
  members: ServerTeamUser[];
  /** Direct grants only: what the owner can revoke. */
  grants: TeamMemberPermission[];
  definitions: PermissionDefinition[];
  invitations: TeamInvitation[];
};

export function useTeam(project: OwnedProject, teamId: string) {
  const [data, setData] = useState<TeamData | null | "missing">(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    setData(null);
    setError(null);
    (async () => {
      const team = await project.app.getTeam(teamId);
      if (!team) return "missing" as const;
      const [members, grants, definitions, invitations] = await Promise.all([
        team.listUsers(),
        team.listMemberPermissions({ recursive: false }),
        project.app.listTeamPermissionDefinitions(),
        team.listInvitations(),
      ]);
      return { team, members, grants, definitions, invitations };
    })()
      .then((loaded) => live && setData(loaded))
      .catch((e: unknown) => live && setError(errorMessage(e, "Could not load the team.")));
    return () => {
      live = false;
    };
  }, [project, teamId]);

  const patch = useCallback((part: Partial<TeamData>) => setData((d) => (d && d !== "missing" ? { ...d, ...part } : d)), []);

  const current = data && data !== "missing" ? data : null;
  const reload = {
    team: useCallback(async () => {
      const team = await project.app.getTeam(teamId);
      if (team) patch({ team });
    }, [project, teamId, patch]),
    members: useCallback(async () => {
      if (!current) return;
      const [members, grants] = await Promise.all([current.team.listUsers(), current.team.listMemberPermissions({ recursive: false })]);
      patch({ members, grants });
    }, [current, patch]),
    grants: useCallback(async () => {
      if (current) patch({ grants: await current.team.listMemberPermissions({ recursive: false }) });
    }, [current, patch]),
    invitations: useCallback(async () => {
      if (current) patch({ invitations: await current.team.listInvitations() });
    }, [current, patch]),
  };
  return { data, error, reload };
}
