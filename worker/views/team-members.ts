/** Wire views of member profiles and invitations (wire-protocol.md §2). */
import type { TeamInvitationJson, TeamMemberProfileJson } from "@doorman/shared/wire";
import type { InvitationRow } from "../db/queries/team-invitations";
import type { MemberProfileRecord } from "../db/queries/teams";
import type { FlatProjectConfig } from "../services/project-config/flat";
import { userServerView } from "../services/user-view";

/** A member's per-team profile; unset fields fall back to the user's own. Back ends also get `user`. */
export function memberProfileView(
  { member, record }: MemberProfileRecord,
  config: FlatProjectConfig,
  withUser: boolean,
): TeamMemberProfileJson {
  const view = {
    team_id: member.teamId,
    user_id: member.userId,
    display_name: member.displayName ?? record.user.displayName ?? null,
    profile_image_url: member.profileImageUrl ?? record.user.profileImageUrl ?? null,
  };
  return withUser ? { ...view, user: userServerView(record, config) } : view;
}

export function invitationView(row: InvitationRow): TeamInvitationJson {
  return {
    id: row.id,
    team_id: row.teamId,
    team_display_name: row.teamDisplayName,
    expires_at_millis: row.expiresAt,
    recipient_email: row.email,
  };
}
