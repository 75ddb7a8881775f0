/**
 * Teams: create (the creator joins with the creator default permissions), read, update and
 * delete. A client acts as its signed-in user and is held to the team's system permissions; a
 * back end (server/admin key) is not. Multi-row writes go out as one D1 batch.
 */
import type { BatchItem } from "drizzle-orm/batch";
import type { ProjectRow } from "../db/queries/projects";
import { deleteInvitationsOfTeamStatement } from "../db/queries/team-invitations";
import {
  clearSelectedTeamStatement,
  deleteMembershipsOfTeamStatement,
  deleteTeamStatement,
  findTeam,
  insertNewMembershipStatement,
  insertTeamStatement,
  isTeamMember,
  listTeamsOfProject,
  type TeamPatch,
  updateTeamRow,
} from "../db/queries/teams";
import { findUserRecord, type TeamRow, updateUserStatement } from "../db/queries/users";
import type { Deps } from "./deps";
import { eventIfChangedStatement, eventStatement } from "./events";
import { defaultTeamGrantStatements, hasTeamPermission, type SystemTeamPermission } from "./permissions";
import { readProjectConfig } from "./project-config/flat";
import { fail, type Problem } from "./result";

/** Who acts: a client as its signed-in user (held to team permissions), or a back end. */
export type TeamActor = { kind: "client"; userId: string } | { kind: "backend" };

export type TeamAccessProblem = Problem<"team_not_found" | "team_not_member" | "team_permission_required">;

type Batch = [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]];

/**
 * The team, if the actor may act on it: a back end needs only the team to exist; a client must
 * be a member (checked first, so a non-member learns nothing about the team) and hold every
 * permission listed.
 */
export async function checkTeamAccess(
  deps: Deps,
  projectId: string,
  teamId: string,
  actor: TeamActor,
  ...permissionIds: SystemTeamPermission[]
): Promise<{ ok: true; team: TeamRow } | TeamAccessProblem> {
  if (actor.kind === "client") {
    if (!(await isTeamMember(deps.db, teamId, actor.userId))) return fail("team_not_member", { teamId, userId: actor.userId });
    for (const permissionId of permissionIds) {
      if (!(await hasTeamPermission(deps, projectId, teamId, actor.userId, permissionId))) {
        return fail("team_permission_required", { teamId, userId: actor.userId, permissionId });
      }
    }
  }
  const team = await findTeam(deps.db, projectId, teamId);
  return team ? { ok: true, team } : fail("team_not_found", { teamId });
}

export function listTeams(deps: Deps, projectId: string, userId?: string): Promise<TeamRow[]> {
  return listTeamsOfProject(deps.db, projectId, userId);
}

export type NewTeamInput = TeamPatch & { displayName: string; creatorUserId?: string };

export type CreateTeamResult =
  | { ok: true; team: TeamRow }
  | Problem<"client_team_creation_disabled" | "creator_not_self" | "user_not_found">;

/** Creates a team; the creator (a client's own user by default) joins it with the creator defaults. */
export async function createTeam(deps: Deps, project: ProjectRow, actor: TeamActor, input: NewTeamInput): Promise<CreateTeamResult> {
  let creatorId = input.creatorUserId;
  if (actor.kind === "client") {
    // A project owner decides whether end users may create teams at all.
    if (!readProjectConfig(project.config).client_team_creation_enabled) return fail("client_team_creation_disabled");
    if (creatorId !== undefined && creatorId !== actor.userId) return fail("creator_not_self");
    creatorId = actor.userId;
  }
  if (creatorId && !(await findUserRecord(deps.db, project.id, creatorId))) return fail("user_not_found");
  const now = deps.now();
  const teamId = deps.random.uuid();
  const statements: BatchItem<"sqlite">[] = [
    insertTeamStatement(deps.db, {
      id: teamId,
      projectId: project.id,
      displayName: input.displayName,
      profileImageUrl: input.profileImageUrl ?? null,
      clientMetadata: input.clientMetadata ?? null,
      clientReadOnlyMetadata: input.clientReadOnlyMetadata ?? null,
      serverMetadata: input.serverMetadata ?? null,
      createdAt: now,
    }),
  ];
  if (creatorId) {
    statements.push(
      insertNewMembershipStatement(deps.db, { projectId: project.id, teamId, userId: creatorId, createdAt: now }),
      ...defaultTeamGrantStatements(deps, project, teamId, creatorId, "creator"),
    );
    // SPEC §4: a team a user creates becomes their selected team.
    if (actor.kind === "client") statements.push(updateUserStatement(deps.db, project.id, creatorId, { selectedTeamId: teamId }));
  }
  statements.push(eventStatement(deps, project.id, "team.created", { teamId, userId: creatorId ?? null }));
  // The creator's membership is in the event log; as in the reference, team.created stands for it on
  // webhooks (payloads.ts sends none for `creator`).
  if (creatorId)
    statements.push(eventStatement(deps, project.id, "team_membership.created", { teamId, userId: creatorId }, { creator: true }));
  await deps.db.batch(statements as Batch);
  const team = await findTeam(deps.db, project.id, teamId);
  if (!team) throw new Error("team vanished right after creation");
  return { ok: true, team };
}

export function getTeam(deps: Deps, projectId: string, actor: TeamActor, teamId: string) {
  return checkTeamAccess(deps, projectId, teamId, actor);
}

export async function updateTeam(
  deps: Deps,
  projectId: string,
  actor: TeamActor,
  teamId: string,
  patch: TeamPatch,
): Promise<{ ok: true; team: TeamRow } | TeamAccessProblem> {
  const access = await checkTeamAccess(deps, projectId, teamId, actor, "$update_team");
  if (!access.ok) return access;
  const team = await updateTeamRow(deps.db, projectId, teamId, patch, {
    // The update and its event in one batch; the event lists the fields, not their values.
    event: eventIfChangedStatement(deps, projectId, "team.updated", { teamId }, { fields: Object.keys(patch) }),
  });
  return team ? { ok: true, team } : fail("team_not_found", { teamId });
}

/**
 * Deletes a team in one batch: its invitation codes (data-only references, so deleted
 * explicitly), the selected_team_id of users who had it selected, its memberships, and the team
 * itself (grants and team API keys follow by foreign-key cascade).
 */
export async function deleteTeam(
  deps: Deps,
  projectId: string,
  actor: TeamActor,
  teamId: string,
): Promise<{ ok: true } | TeamAccessProblem> {
  const access = await checkTeamAccess(deps, projectId, teamId, actor, "$delete_team");
  if (!access.ok) return access;
  const [, , , deleted] = await deps.db.batch([
    deleteInvitationsOfTeamStatement(deps.db, projectId, teamId),
    clearSelectedTeamStatement(deps.db, projectId, teamId),
    deleteMembershipsOfTeamStatement(deps.db, projectId, teamId),
    deleteTeamStatement(deps.db, projectId, teamId),
    eventIfChangedStatement(deps, projectId, "team.deleted", { teamId }),
  ]);
  return deleted.length > 0 ? { ok: true } : fail("team_not_found", { teamId });
}
