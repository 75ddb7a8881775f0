/**
 * `/projects/:projectId/teams/:teamId`: one team of the project: rename, members (add, remove,
 * per-member team permissions), invitations (send, revoke), a link to its enterprise SSO page,
 * metadata, and delete, through the owner's admin app.
 */

import type { TeamInvitation } from "@doorman/sdk";
import type { MetaFunction } from "@remix-run/cloudflare";
import { Link, useNavigate, useParams } from "@remix-run/react";
import type { ReactNode } from "react";
import { ConfirmButton, PageHeading } from "../components/console-ui";
import { RouteError } from "../components/route-error";
import { AddMemberForm } from "../components/teams/add-member-form";
import { RenameTeamForm } from "../components/teams/rename-team-form";
import { defaultInvitationUrl } from "../components/teams/team-fields";
import { TeamInvitations } from "../components/teams/team-invitations";
import { memberName, TeamMembers } from "../components/teams/team-members";
import { type Metadata, TeamMetadata } from "../components/teams/team-metadata";
import { type TeamData, useTeam } from "../components/teams/use-team";
import { formatDay } from "../lib/format";
import { useProject } from "../lib/project-context";

export const meta: MetaFunction = () => [{ title: "Team · Doorman" }];

export default function ProjectTeamRoute() {
  const { project } = useProject();
  const { teamId = "" } = useParams();
  const { data, error, reload } = useTeam(project, teamId);
  const back = (
    <Link to={`/projects/${project.id}/teams`} className="back-link">
      ← All teams
    </Link>
  );

  if (data === "missing")
    return (
      <>
        <PageHeading title="Team not found">
          <p className="muted">This team does not exist in {project.displayName}, or it was deleted.</p>
        </PageHeading>
        {back}
      </>
    );
  if (error || data === null)
    return (
      <>
        {back}
        {error ? (
          <p className="alert" role="alert">
            {error}
          </p>
        ) : (
          <p className="muted" role="status">
            Loading the team…
          </p>
        )}
      </>
    );
  return <TeamPage data={data} reload={reload} back={back} />;
}

function TeamPage({ data, reload, back }: { data: TeamData; reload: ReturnType<typeof useTeam>["reload"]; back: ReactNode }) {
  const { project, toast } = useProject();
  const navigate = useNavigate();
  const { team, members, grants, definitions, invitations } = data;

  const metadata: Metadata = {
    clientMetadata: team.clientMetadata,
    clientReadOnlyMetadata: team.clientReadOnlyMetadata,
    serverMetadata: team.serverMetadata,
  };

  return (
    <div className="team-page">
      {back}
      <PageHeading title={`Team · ${team.displayName}`}>
        <p className="muted">
          Id <code>{team.id}</code> · created {formatDay(team.createdAt)} · {members.length} {members.length === 1 ? "member" : "members"}
        </p>
      </PageHeading>
      <RenameTeamForm
        key={team.displayName}
        name={team.displayName}
        onRename={async (displayName) => {
          await team.update({ displayName });
          await reload.team();
          toast(`Team renamed to ${displayName}.`);
        }}
      />
      <TeamMembers
        teamName={team.displayName}
        members={members}
        grants={grants}
        definitions={definitions}
        onRemove={async (member) => {
          await team.removeUser(member.id);
          await reload.members();
          toast(`${memberName(member)} removed from the team.`);
        }}
        onGrant={async (member, permissionId) => {
          await team.grantMemberPermission(member.id, permissionId);
          await reload.grants();
          toast(`${permissionId} granted to ${memberName(member)}.`);
        }}
        onRevoke={async (member, permissionId) => {
          await team.revokeMemberPermission(member.id, permissionId);
          await reload.grants();
          toast(`${permissionId} revoked from ${memberName(member)}.`);
        }}
      />
      <AddMemberForm
        project={project}
        memberIds={members.map((m) => m.id)}
        onAdd={async (userId) => {
          await team.addUser(userId);
          await reload.members();
          toast("Member added.");
        }}
      />
      <TeamInvitations
        teamName={team.displayName}
        invitations={invitations}
        defaultCallbackUrl={defaultInvitationUrl(project)}
        onSend={async (email, callbackUrl) => {
          await team.inviteUser({ email, callbackUrl });
          await reload.invitations();
          toast(`Invitation sent to ${email}.`);
        }}
        onRevoke={async (invitation: TeamInvitation) => {
          await invitation.revoke();
          await reload.invitations();
          toast(`Invitation to ${invitation.recipientEmail} revoked.`);
        }}
      />
      <section className="panel" aria-labelledby="team-sso-title">
        <h2 id="team-sso-title">Enterprise SSO</h2>
        <p className="muted">
          The team's own identity provider (SAML or OpenID Connect), its verified email domains and SCIM provisioning.
        </p>
        <Link to={`/projects/${project.id}/teams/${team.id}/sso`} className="btn btn-secondary">
          Set up SSO
        </Link>
      </section>
      <TeamMetadata
        value={metadata}
        onSave={async (next) => {
          await team.update(next);
          await reload.team();
          toast("Metadata saved.");
        }}
      />
      <section className="panel danger-zone" aria-labelledby="delete-team-title">
        <h2 id="delete-team-title">Delete this team</h2>
        <p className="muted">Deleting a team cannot be undone.</p>
        <ConfirmButton
          label="Delete team"
          title={`Delete ${team.displayName}?`}
          consequence={`All ${members.length} ${members.length === 1 ? "member loses" : "members lose"} access to the team and every team permission in it. Its open invitations, API keys and metadata are deleted. This cannot be undone.`}
          confirmLabel="Delete team"
          onConfirm={async () => {
            await team.delete();
            toast(`Team ${team.displayName} deleted.`);
            navigate(`/projects/${project.id}/teams`);
          }}
        />
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
