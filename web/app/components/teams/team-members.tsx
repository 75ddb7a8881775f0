/**
 * The members of a team on its detail page: each with name, email and id, its direct team
 * permissions (revoke, and grant from the team permission definitions), and "Remove" behind a
 * confirmation.
 */

import type { PermissionDefinition, ServerTeamUser, TeamMemberPermission } from "@doorman/sdk";
import { type FormEvent, useId, useState } from "react";
import { Alert, ConfirmButton, useAction } from "../console-ui";

type Props = {
  teamName: string;
  members: ServerTeamUser[];
  grants: TeamMemberPermission[];
  definitions: PermissionDefinition[];
  onRemove(member: ServerTeamUser): Promise<void>;
  onGrant(member: ServerTeamUser, permissionId: string): Promise<void>;
  onRevoke(member: ServerTeamUser, permissionId: string): Promise<void>;
};

/** How a member is named in labels: display name, else email, else id. */
export function memberName(member: ServerTeamUser): string {
  return member.displayName ?? member.teamProfile.displayName ?? member.primaryEmail ?? member.id;
}

export function TeamMembers(props: Props) {
  const id = useId();
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Members</h2>
      {props.members.length === 0 ? (
        <p className="empty">No members yet. Add one below, or send an invitation.</p>
      ) : (
        <ul className="member-list" aria-label="Team members">
          {props.members.map((member) => (
            <MemberItem
              key={member.id}
              {...props}
              member={member}
              held={props.grants.filter((g) => g.userId === member.id).map((g) => g.id)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function MemberItem(props: Props & { member: ServerTeamUser; held: string[] }) {
  const { member, held } = props;
  const name = memberName(member);
  const id = useId();
  const [choice, setChoice] = useState("");
  const { busy, error, setError, run } = useAction();
  const grantable = props.definitions.filter((d) => !held.includes(d.id));

  const onGrant = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!choice) {
      setError("Choose a permission to grant.");
      document.getElementById(`${id}-grant`)?.focus();
      return;
    }
    if (await run(() => props.onGrant(member, choice), "Could not grant the permission.")) setChoice("");
  };

  return (
    <li className="member-item">
      <div className="member-head">
        <div>
          <strong>{name}</strong>
          {member.primaryEmail && member.primaryEmail !== name ? <span className="muted"> · {member.primaryEmail}</span> : null}
          <br />
          <code className="member-id">{member.id}</code>
        </div>
        <ConfirmButton
          small
          label="Remove"
          ariaLabel={`Remove ${name} from the team`}
          title={`Remove ${name} from ${props.teamName}?`}
          consequence="They lose access to the team and every team permission they hold in it. Their account is kept; you can add them again later."
          confirmLabel="Remove member"
          onConfirm={() => props.onRemove(member)}
        />
      </div>
      <div className="member-permissions">
        <h3 className="visually-hidden">Team permissions of {name}</h3>
        {held.length === 0 ? (
          <p className="muted">No team permissions held directly.</p>
        ) : (
          <ul className="permission-chips" aria-label={`Team permissions of ${name}`}>
            {held.map((permissionId) => (
              <li key={permissionId} className="permission-chip">
                <code>{permissionId}</code>
                <button
                  type="button"
                  className="chip-revoke"
                  aria-label={`Revoke ${permissionId} from ${name}`}
                  disabled={busy}
                  onClick={() => run(() => props.onRevoke(member, permissionId), "Could not revoke the permission.")}
                >
                  <span aria-hidden="true">×</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <Alert message={error} />
        {grantable.length ? (
          <form className="team-inline grant-form" noValidate onSubmit={onGrant}>
            <label htmlFor={`${id}-grant`} className="visually-hidden">
              Permission to grant to {name}
            </label>
            <select id={`${id}-grant`} className="input" value={choice} onChange={(e) => setChoice(e.target.value)}>
              <option value="">Choose a permission…</option>
              {grantable.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.id}
                  {d.description ? ` · ${d.description}` : ""}
                </option>
              ))}
            </select>
            <button type="submit" className="btn btn-secondary btn-small" disabled={busy} aria-label={`Grant to ${name}`}>
              {busy ? "Saving…" : "Grant"}
            </button>
          </form>
        ) : null}
      </div>
    </li>
  );
}
