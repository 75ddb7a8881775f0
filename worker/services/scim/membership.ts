/**
 * What a SCIM User's state means in the connection's team (issue 31), as statements for the batch of
 * the write that changes it:
 * - active (created active, or reactivated): the team membership with the project's member default
 *   permissions (the statements a team_members add uses), and the permissions its groups map to;
 * - deprovisioned (active=false or deleted): the membership and its grants removed, the team no longer
 *   selected, and EVERY session of the user in the project ended, so refresh tokens find nothing and
 *   access tokens are refused on their next request (request-auth checks the session);
 * - group-mapped permissions (sso_connections.scim_group_mapping, displayName → permission ids): granted
 *   while a group of the member maps them, revoked when none does. Both carry a condition evaluated as
 *   the batch runs (grantedByGroupsCondition), so concurrent writes to different groups stay consistent.
 */
import { sql } from "drizzle-orm";
import { grantedByGroupsCondition } from "../../db/queries/scim-groups";
import { deleteSessionsOfUserStatement } from "../../db/queries/sessions";
import { clearSelectedTeamStatement, deleteMembershipStatement, insertMembershipStatement } from "../../db/queries/teams";
import type { Deps } from "../deps";
import { eventIfChangedStatement } from "../events";
import { cutUserSessions } from "../outage/revocation-cuts";
import {
  type BatchItem,
  defaultTeamGrantStatements,
  grantTeamPermissionStatements,
  revokeTeamGrantsStatements,
  revokeTeamPermissionStatements,
} from "../permissions";
import type { ScimCaller } from "./auth";

/** displayName → permission ids. A Map, not an object: a group may well be named "constructor" or "__proto__". */
export type GroupMapping = Map<string, string[]>;

/** The connection's mapping, keeping only well-formed entries (it is JSON an admin wrote). */
export function groupMappingOf(caller: ScimCaller): GroupMapping {
  const raw = caller.connection.scimGroupMapping as unknown;
  const out: GroupMapping = new Map();
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return out;
  for (const [name, ids] of Object.entries(raw)) {
    if (Array.isArray(ids))
      out.set(
        name,
        ids.filter((id): id is string => typeof id === "string" && id.length > 0),
      );
  }
  return out;
}

/** The permissions groups of these names map to. */
export function permissionsOfGroups(mapping: GroupMapping, groupNames: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const name of groupNames) for (const id of mapping.get(name) ?? []) out.add(id);
  return out;
}

/** The group names that map to a permission. */
function groupsGranting(mapping: GroupMapping, permissionId: string): string[] {
  return [...mapping].filter(([, ids]) => ids.includes(permissionId)).map(([name]) => name);
}

export type Member = { identityId: string; userId: string };

/** Grants each permission while a group of the member maps it (as the batch runs); only team members get grants. */
export function grantMappedStatements(deps: Deps, caller: ScimCaller, member: Member, permissionIds: Iterable<string>): BatchItem[] {
  const { project, connection } = caller;
  const mapping = groupMappingOf(caller);
  return [...permissionIds].flatMap((id) =>
    grantTeamPermissionStatements(
      deps,
      project.id,
      connection.teamId,
      member.userId,
      id,
      grantedByGroupsCondition(connection.id, member.identityId, groupsGranting(mapping, id)),
    ),
  );
}

/** Revokes each permission unless a group of the member still maps it (as the batch runs). */
export function revokeUnmappedStatements(deps: Deps, caller: ScimCaller, member: Member, permissionIds: Iterable<string>): BatchItem[] {
  const { project, connection } = caller;
  const mapping = groupMappingOf(caller);
  return [...permissionIds].flatMap((id) =>
    revokeTeamPermissionStatements(
      deps,
      project.id,
      connection.teamId,
      member.userId,
      id,
      sql`NOT ${grantedByGroupsCondition(connection.id, member.identityId, groupsGranting(mapping, id))}`,
    ),
  );
}

/**
 * An active identity's place in the team: the membership (kept if there is one), the member defaults
 * when it is new, and its groups' mapped permissions.
 */
export function joinTeamStatements(
  deps: Deps,
  caller: ScimCaller,
  member: Member,
  groupNames: readonly string[],
  alreadyMember: boolean,
): BatchItem[] {
  const { project, connection } = caller;
  const teamId = connection.teamId;
  const joining = alreadyMember
    ? []
    : [
        insertMembershipStatement(deps.db, { projectId: project.id, teamId, userId: member.userId, createdAt: deps.now() }),
        eventIfChangedStatement(
          deps,
          project.id,
          "team_membership.created",
          { teamId, userId: member.userId },
          { scim_connection_id: connection.id },
        ),
        ...defaultTeamGrantStatements(deps, project, teamId, member.userId, "member"),
      ];
  return [...joining, ...grantMappedStatements(deps, caller, member, permissionsOfGroups(groupMappingOf(caller), groupNames))];
}

/** Deprovisioning: out of the team (grants and selection with it) and signed out everywhere in the project. */
export function leaveTeamStatements(deps: Deps, caller: ScimCaller, member: Member): BatchItem[] {
  const { project, connection } = caller;
  const teamId = connection.teamId;
  const userId = member.userId;
  // The sessions' Durable Objects refuse outage refreshes too (services/outage/revocation-cuts.ts; written after the answer).
  cutUserSessions(deps, userId);
  return [
    deleteMembershipStatement(deps.db, project.id, teamId, userId),
    eventIfChangedStatement(deps, project.id, "team_membership.deleted", { teamId, userId }, { scim_connection_id: connection.id }),
    ...revokeTeamGrantsStatements(deps, teamId, userId),
    clearSelectedTeamStatement(deps.db, project.id, teamId, userId),
    // Every session, not only those of SSO sign-ins: the IdP deprovisioned the person, so no way in stays open.
    deleteSessionsOfUserStatement(deps.db, project.id, userId),
    eventIfChangedStatement(deps, project.id, "session.revoked", { userId }, { everywhere: true, scim_connection_id: connection.id }),
  ];
}
