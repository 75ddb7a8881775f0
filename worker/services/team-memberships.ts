/**
 * Team memberships and member profiles: add (with the member default permissions), remove or
 * leave (revoking the member's team grants and keeping selected_team_id valid), and the
 * per-team display name / image. The primary key (team_id, user_id) decides membership races.
 */
import type { BatchItem } from "drizzle-orm/batch";
import type { ProjectRow } from "../db/queries/projects";
import {
  clearSelectedTeamStatement,
  deleteMembershipStatement,
  findMemberProfile,
  findTeam,
  insertNewMembershipStatement,
  isTeamMember,
  listMemberProfiles,
  type MemberProfileRecord,
  updateMemberProfileRow,
} from "../db/queries/teams";
import { findUserRecord, isUniqueViolation } from "../db/queries/users";
import type { Deps } from "./deps";
import { eventIfChangedStatement, eventStatement } from "./events";
import { defaultTeamGrantStatements, revokeTeamGrantsStatements } from "./permissions";
import { fail, type Problem } from "./result";
import { checkTeamAccess, type TeamAccessProblem, type TeamActor } from "./teams";

type Batch = [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]];

export type AddMemberResult = { ok: true } | Problem<"team_not_found" | "user_not_found" | "membership_exists">;

/** Adds a user to a team with the project's member default permissions, in one batch. */
export async function addMember(
  deps: Deps,
  project: ProjectRow,
  teamId: string,
  userId: string,
  extraEvents: BatchItem<"sqlite">[] = [],
): Promise<AddMemberResult> {
  if (!(await findUserRecord(deps.db, project.id, userId))) return fail("user_not_found");
  if (!(await findTeam(deps.db, project.id, teamId))) return fail("team_not_found", { teamId });
  try {
    await deps.db.batch([
      insertNewMembershipStatement(deps.db, { projectId: project.id, teamId, userId, createdAt: deps.now() }),
      ...defaultTeamGrantStatements(deps, project, teamId, userId, "member"),
      eventStatement(deps, project.id, "team_membership.created", { teamId, userId }),
      ...extraEvents,
    ] as Batch);
  } catch (err) {
    // Two adds racing: the primary key lets exactly one in, and the loser's grants roll back with it.
    if (isUniqueViolation(err)) return fail("membership_exists", { teamId, userId });
    throw err;
  }
  return { ok: true };
}

/**
 * Joins a team through an invitation, if not yet a member (joining twice is fine); the acceptance
 * is recorded with the membership. Returns false when the team no longer exists.
 */
export async function joinTeam(deps: Deps, project: ProjectRow, teamId: string, userId: string, invitationId: string): Promise<boolean> {
  const accepted = () => eventStatement(deps, project.id, "team_invitation.accepted", { teamId, userId }, { invitation_id: invitationId });
  if (await isTeamMember(deps.db, teamId, userId)) {
    await accepted();
    return true;
  }
  const added = await addMember(deps, project, teamId, userId, [accepted()]);
  if (!added.ok && added.reason === "membership_exists") await accepted();
  return added.ok || added.reason === "membership_exists";
}

/**
 * Removes a member (or the caller leaves). A client may remove others only with
 * $remove_members; leaving needs no permission. Grants go and a selection of this team is
 * cleared in the same batch.
 */
export async function removeMember(
  deps: Deps,
  projectId: string,
  actor: TeamActor,
  teamId: string,
  userId: string,
): Promise<{ ok: true } | TeamAccessProblem> {
  if (actor.kind === "client" && actor.userId !== userId) {
    const access = await checkTeamAccess(deps, projectId, teamId, actor, "$remove_members");
    if (!access.ok) return access;
  }
  const [deleted] = await deps.db.batch([
    deleteMembershipStatement(deps.db, projectId, teamId, userId),
    eventIfChangedStatement(deps, projectId, "team_membership.deleted", { teamId, userId }),
    ...revokeTeamGrantsStatements(deps, teamId, userId),
    clearSelectedTeamStatement(deps.db, projectId, teamId, userId),
  ] as Batch);
  return (deleted as unknown[]).length > 0 ? { ok: true } : fail("team_not_member", { teamId, userId });
}

export type ProfileProblem = TeamAccessProblem | Problem<"team_id_required" | "profile_not_own" | "user_not_found">;

/** A client lists its own teams' members: others only with $read_members. */
export async function listProfiles(
  deps: Deps,
  projectId: string,
  actor: TeamActor,
  filter: { teamId?: string; userId?: string },
): Promise<{ ok: true; profiles: MemberProfileRecord[] } | ProfileProblem> {
  if (actor.kind === "client") {
    if (!filter.teamId) return fail("team_id_required");
    const permissions = filter.userId === actor.userId ? [] : (["$read_members"] as const);
    const access = await checkTeamAccess(deps, projectId, filter.teamId, actor, ...permissions);
    if (!access.ok) return access;
  } else {
    if (filter.teamId && !(await findTeam(deps.db, projectId, filter.teamId))) return fail("team_not_found", { teamId: filter.teamId });
    if (filter.userId && !(await findUserRecord(deps.db, projectId, filter.userId))) return fail("user_not_found");
  }
  return { ok: true, profiles: await listMemberProfiles(deps.db, projectId, filter) };
}

export async function getProfile(
  deps: Deps,
  projectId: string,
  actor: TeamActor,
  teamId: string,
  userId: string,
): Promise<{ ok: true; profile: MemberProfileRecord } | ProfileProblem> {
  if (actor.kind === "client") {
    const permissions = userId === actor.userId ? [] : (["$read_members"] as const);
    const access = await checkTeamAccess(deps, projectId, teamId, actor, ...permissions);
    if (!access.ok) return access;
  }
  const profile = await findMemberProfile(deps.db, projectId, teamId, userId);
  return profile ? { ok: true, profile } : fail("team_not_member", { teamId, userId });
}

/** Updates a member's per-team profile; a client only its own. */
export async function updateProfile(
  deps: Deps,
  projectId: string,
  actor: TeamActor,
  teamId: string,
  userId: string,
  patch: { displayName?: string | null; profileImageUrl?: string | null },
): Promise<{ ok: true; profile: MemberProfileRecord } | ProfileProblem> {
  if (actor.kind === "client" && actor.userId !== userId) return fail("profile_not_own");
  if (!(await updateMemberProfileRow(deps.db, projectId, teamId, userId, patch))) return fail("team_not_member", { teamId, userId });
  return getProfile(deps, projectId, { kind: "backend" }, teamId, userId);
}
