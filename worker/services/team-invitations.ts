/**
 * Team invitations (wire-protocol.md §5): an emailed verification code (purpose
 * `team_invitation`, data {team_id, email}) that a signed-in, unrestricted user redeems once to
 * join the team. Listing, revoking and accepting by id work on the same code rows.
 */

import { listChannelsOfUser } from "../db/queries/contact-channels";
import type { ProjectRow } from "../db/queries/projects";
import {
  deleteInvitationOfTeam,
  findOpenInvitation,
  type InvitationRow,
  listOpenInvitationsForUser,
  listOpenInvitationsOfTeam,
  TEAM_INVITATION_PURPOSE,
} from "../db/queries/team-invitations";
import { findTeam } from "../db/queries/teams";
import { findUserRecord, type UserRecord } from "../db/queries/users";
import { markCodeUsed } from "../db/queries/verification-codes";
import type { Deps } from "./deps";
import { emailCarryingCode } from "./email/outbox";
import { eventFor } from "./events";
import { isTrustedRedirectUrl } from "./hosted-pages/trust";
import { readProjectConfig } from "./project-config/flat";
import { fail, type Problem } from "./result";
import { joinTeam } from "./team-memberships";
import { checkTeamAccess, type TeamAccessProblem, type TeamActor } from "./teams";
import { restrictedReasonOf } from "./user-restrictions";
import { normaliseEmail } from "./users";
import { type CodeProblem, issueCode, linkWithCode, redeemCode } from "./verification-codes";

export type InvitationProblem = TeamAccessProblem | CodeProblem | Problem<"untrusted_url" | "invitation_restricted_user">;

/** Emails an invitation link (callback_url + ?code=); a client needs $invite_members. */
export async function sendInvitation(
  deps: Deps,
  project: ProjectRow,
  actor: TeamActor,
  input: { teamId: string; email: string; callbackUrl: string },
): Promise<{ ok: true; id: string } | InvitationProblem> {
  const access = await checkTeamAccess(deps, project.id, input.teamId, actor, "$invite_members");
  if (!access.ok) return access;
  // The link carries a code that grants membership: it may only point at the project's domains.
  if (!(await isTrustedRedirectUrl(deps, project, input.callbackUrl))) return fail("untrusted_url");
  const email = normaliseEmail(input.email);
  const mail = emailCarryingCode(deps, project, "team_invitation", { type: "custom-emails", emails: [email] }, (issued) => ({
    link: linkWithCode(input.callbackUrl, issued.code),
    teamDisplayName: access.team.displayName,
  }));
  const issued = await issueCode(
    deps,
    project.id,
    TEAM_INVITATION_PURPOSE,
    { team_id: input.teamId, email },
    undefined,
    (id) => eventFor(deps, project.id, "team_invitation.sent", { teamId: input.teamId }, { invitation_id: id }),
    mail.alongside,
  );
  await mail.enqueue();
  return { ok: true, id: issued.id };
}

/** A team's open invitations; a client needs both $read_members and $invite_members (as the reference). */
export async function listTeamInvitations(
  deps: Deps,
  projectId: string,
  actor: TeamActor,
  teamId: string,
): Promise<{ ok: true; invitations: InvitationRow[] } | TeamAccessProblem> {
  const access = await checkTeamAccess(deps, projectId, teamId, actor, "$read_members", "$invite_members");
  if (!access.ok) return access;
  return { ok: true, invitations: await listOpenInvitationsOfTeam(deps.db, projectId, teamId, deps.now()) };
}

/** Open invitations addressed to the user's verified emails. */
export function listUserInvitations(deps: Deps, projectId: string, userId: string): Promise<InvitationRow[]> {
  return listOpenInvitationsForUser(deps.db, projectId, userId, deps.now());
}

/** Revokes an invitation of the team; a client needs $remove_members (as the reference). */
export async function revokeInvitation(
  deps: Deps,
  projectId: string,
  actor: TeamActor,
  teamId: string,
  id: string,
): Promise<{ ok: true } | TeamAccessProblem | CodeProblem> {
  const access = await checkTeamAccess(deps, projectId, teamId, actor, "$remove_members");
  if (!access.ok) return access;
  return (await deleteInvitationOfTeam(deps.db, projectId, teamId, id)) ? { ok: true } : fail("code_not_found");
}

/** Restricted (and anonymous) users may not join teams: they have not proven who they are. */
function restrictionOf(project: ProjectRow, user: UserRecord): InvitationProblem | null {
  const reason = restrictedReasonOf(user, readProjectConfig(project.config));
  return reason ? fail("invitation_restricted_user", { restrictedReason: reason }) : null;
}

export type CodeMode = "accept" | "check" | "details";
export type CodeOutcome = { ok: true; teamId: string; teamDisplayName: string } | InvitationProblem;

/**
 * The three modes of the code endpoint. `check` only validates; `details` and `accept` need an
 * unrestricted user, checked before the code is used so a refused user does not burn it.
 * `accept` uses the code up atomically (one winner under concurrency), then joins the team.
 */
export async function redeemInvitationCode(
  deps: Deps,
  project: ProjectRow,
  user: UserRecord | null,
  code: string,
  mode: CodeMode,
): Promise<CodeOutcome> {
  if (mode !== "check" && user) {
    const restricted = restrictionOf(project, user);
    if (restricted) return restricted;
  }
  const redeemed = await redeemCode(deps, project.id, TEAM_INVITATION_PURPOSE, code, mode === "accept");
  if (!redeemed.ok) return redeemed;
  const teamId = String(redeemed.row.data.team_id);
  const team = await findTeam(deps.db, project.id, teamId);
  if (!team) return fail("team_not_found", { teamId });
  if (mode === "accept" && user && !(await joinTeam(deps, project, teamId, user.user.id, redeemed.row.id)))
    return fail("team_not_found", { teamId });
  return { ok: true, teamId, teamDisplayName: team.displayName };
}

/**
 * Accepts an invitation by id for a user who has a verified email it was sent to. Unknown,
 * used, expired or someone else's invitations all answer "not found" (nothing to enumerate).
 */
export async function acceptInvitationById(
  deps: Deps,
  project: ProjectRow,
  userId: string,
  id: string,
  checkRestriction: boolean,
): Promise<{ ok: true } | InvitationProblem | Problem<"user_not_found">> {
  const user = await findUserRecord(deps.db, project.id, userId);
  if (!user) return fail("user_not_found");
  if (checkRestriction) {
    const restricted = restrictionOf(project, user);
    if (restricted) return restricted;
  }
  const invitation = await findOpenInvitation(deps.db, project.id, id, deps.now());
  const channels = invitation ? await listChannelsOfUser(deps.db, project.id, user.user.id) : [];
  const addressed = channels.some((c) => c.isVerified && c.value === invitation?.email);
  if (!invitation || !addressed) return fail("code_not_found");
  // Single use: only one request flips used_at from NULL.
  if (!(await markCodeUsed(deps.db, invitation.id, deps.now()))) return fail("code_not_found");
  if (!(await joinTeam(deps, project, invitation.teamId, user.user.id, invitation.id)))
    return fail("team_not_found", { teamId: invitation.teamId });
  return { ok: true };
}
