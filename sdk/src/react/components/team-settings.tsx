/**
 * Settings of one team, each part offered only with the permission it needs: rename
 * ($update_team), members (listed with $read_members, removed with $remove_members), invitations
 * (sent with $invite_members; listed with $read_members + $invite_members; revoked with
 * $remove_members), API keys ($manage_api_keys), single sign-on ($update_team: the team's identity
 * provider and email domains, issue 31), leaving, and deleting ($delete_team).
 */
import { type FormEvent, useCallback, useEffect, useMemo, useState } from "react";
import type { ReactUser } from "../app-types";
import { useTranslation } from "../i18n/context";
import type { ReactTeam, ReactTeamInvitation, ReactTeamUser } from "../team-types";
import { useUser } from "../use-user";
import { TeamApiKeysSection } from "./api-keys-section";
import { emailLinkErrorMessage, messageOf } from "./code-messages";
import { checkEmail } from "./credential-errors";
import { Field, FormAlert } from "./field";
import { SsoSetupPanel } from "./sso-setup";
import { type TeamPermissions, useTeamPermissions } from "./use-team-permissions";

const TEAM_NAME_MAX = 256;

/** Runs one action at a time and reports its outcome. */
function useAction() {
  const { t } = useTranslation();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const run = async (done: string, work: () => Promise<unknown>): Promise<boolean> => {
    setPending(true);
    setError(null);
    setStatus(null);
    try {
      await work();
      setStatus(done);
      return true;
    } catch (e) {
      // The only links sent from here are team invitations (the SDK's default invitation page).
      setError(emailLinkErrorMessage(e, "/handler/team-invitation", t));
      return false;
    } finally {
      setPending(false);
    }
  };
  return { pending, error, status, run, setError };
}

/**
 * @example
 * <TeamSettings team={team} />
 */
export function TeamSettings({ team }: { team: ReactTeam }) {
  const user = useUser({ or: "redirect" });
  const permissions = useTeamPermissions(user, team);
  return (
    <div className="stack-team-settings" data-team-id={team.id}>
      {permissions.can("$update_team") ? <TeamProfile team={team} /> : null}
      <TeamMembers team={team} user={user} permissions={permissions} />
      <TeamInvitations team={team} permissions={permissions} />
      {permissions.can("$manage_api_keys") ? <TeamApiKeysSection team={team} /> : null}
      {permissions.can("$update_team") ? <TeamSso team={team} /> : null}
      <TeamExit team={team} user={user} canDelete={permissions.can("$delete_team")} />
    </div>
  );
}

/** The team's own SSO (its admins: $update_team), the same panel as the IT admin's setup-link page. */
function TeamSso({ team }: { team: ReactTeam }) {
  const { t } = useTranslation();
  // One management object per team: the panel reloads whenever it changes.
  const sso = useMemo(() => team.getSso(), [team]);
  return (
    <section className="stack-section" aria-labelledby={`team-sso-${team.id}`} data-testid="team-sso">
      <h3 id={`team-sso-${team.id}`}>{t("teams.sso")}</h3>
      <p className="stack-hint">{t("teams.ssoIntro")}</p>
      <SsoSetupPanel sso={sso} headingLevel={3} />
    </section>
  );
}

function TeamProfile({ team }: { team: ReactTeam }) {
  const { t } = useTranslation();
  const [name, setName] = useState(team.displayName);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const action = useAction();
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = name.trim();
    if (!value) return setFieldError(t("teams.enterName"));
    if (value.length > TEAM_NAME_MAX) return setFieldError(t("teams.nameTooLong", { max: TEAM_NAME_MAX }));
    await action.run(t("teams.renamed"), () => team.update({ displayName: value }));
  };
  return (
    <section className="stack-section" aria-labelledby={`team-profile-${team.id}`}>
      <h3 id={`team-profile-${team.id}`}>{t("teams.profile")}</h3>
      <form className="stack-form" noValidate onSubmit={onSubmit} aria-label={t("teams.profile")}>
        <FormAlert message={action.error} />
        <Field
          label={t("teams.name")}
          name="teamName"
          value={name}
          maxLength={TEAM_NAME_MAX + 1}
          error={fieldError}
          onChange={(e) => {
            setName(e.target.value);
            setFieldError(null);
          }}
        />
        <div className="stack-actions">
          <button className="stack-button" type="submit" disabled={action.pending}>
            {action.pending ? t("common.saving") : t("teams.rename")}
          </button>
          <span role="status" aria-live="polite" className="stack-hint">
            {action.status ?? ""}
          </span>
        </div>
      </form>
    </section>
  );
}

function TeamMembers({ team, user, permissions }: { team: ReactTeam; user: ReactUser; permissions: TeamPermissions }) {
  const { t } = useTranslation();
  const canRead = permissions.can("$read_members");
  const [members, setMembers] = useState<ReactTeamUser[] | null>(null);
  const action = useAction();
  const reload = useCallback(() => {
    if (canRead) team.listUsers().then(setMembers, (e: unknown) => action.setError(messageOf(e)));
  }, [team, canRead, action.setError]);
  useEffect(reload, [reload]);
  const label = (m: ReactTeamUser) =>
    m.teamProfile.displayName ?? (m.id === user.id ? (user.primaryEmail ?? t("common.you")) : t("teams.unnamed"));
  return (
    <section className="stack-section" aria-labelledby={`team-members-${team.id}`}>
      <h3 id={`team-members-${team.id}`}>{t("teams.members")}</h3>
      <FormAlert message={action.error} />
      {!canRead ? (
        <p className="stack-hint">{t("teams.noPermission")}</p>
      ) : (
        <ul className="stack-list" aria-label={t("teams.membersLabel")}>
          {(members ?? []).map((m) => (
            <li key={m.id} className="stack-list-item">
              <span>
                {label(m)} {m.id === user.id ? <span className="stack-badge">{t("common.you")}</span> : null}
              </span>
              {m.id !== user.id && permissions.can("$remove_members") ? (
                <button
                  type="button"
                  className="stack-button stack-danger stack-small"
                  disabled={action.pending}
                  onClick={async () => {
                    if (await action.run(t("common.removed", { name: label(m) }), () => team.removeUser(m.id))) reload();
                  }}
                >
                  {t("common.remove")}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <span role="status" aria-live="polite" className="stack-hint">
        {action.status ?? ""}
      </span>
    </section>
  );
}

function TeamInvitations({ team, permissions }: { team: ReactTeam; permissions: TeamPermissions }) {
  const { t, formatDate } = useTranslation();
  const canInvite = permissions.can("$invite_members");
  const canList = canInvite && permissions.can("$read_members");
  const [invitations, setInvitations] = useState<ReactTeamInvitation[] | null>(null);
  const [email, setEmail] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const action = useAction();
  const reload = useCallback(() => {
    if (canList) team.listInvitations().then(setInvitations, (e: unknown) => action.setError(messageOf(e)));
  }, [team, canList, action.setError]);
  useEffect(reload, [reload]);
  if (!canInvite) return null;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = checkEmail(email, t);
    if (problem) return setFieldError(problem);
    const address = email.trim();
    if (await action.run(t("teams.invitationSent", { email: address }), () => team.inviteUser({ email: address }))) {
      setEmail("");
      reload();
    }
  };
  return (
    <section className="stack-section" aria-labelledby={`team-invitations-${team.id}`}>
      <h3 id={`team-invitations-${team.id}`}>{t("teams.invitations")}</h3>
      <FormAlert message={action.error} />
      {canList && invitations && invitations.length > 0 ? (
        <ul className="stack-list" aria-label={t("teams.pending")}>
          {invitations.map((i) => (
            <li key={i.id} className="stack-list-item">
              <span>
                {i.recipientEmail} <span className="stack-hint">{t("teams.inviteExpires", { date: formatDate(i.expiresAt) })}</span>
              </span>
              {permissions.can("$remove_members") ? (
                <button
                  type="button"
                  className="stack-button stack-secondary stack-small"
                  disabled={action.pending}
                  onClick={async () => {
                    if (await action.run(t("teams.invitationRevoked", { email: i.recipientEmail }), () => i.revoke())) reload();
                  }}
                >
                  {t("common.revoke")}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      <form className="stack-form" noValidate onSubmit={onSubmit} aria-label={t("teams.inviteLabel")}>
        <Field
          label={t("teams.inviteByEmail")}
          name="inviteEmail"
          type="email"
          autoComplete="off"
          value={email}
          error={fieldError}
          onChange={(e) => {
            setEmail(e.target.value);
            setFieldError(null);
          }}
        />
        <div className="stack-actions">
          <button className="stack-button stack-secondary" type="submit" disabled={action.pending}>
            {t("teams.sendInvitation")}
          </button>
          <span role="status" aria-live="polite" className="stack-hint">
            {action.status ?? ""}
          </span>
        </div>
      </form>
    </section>
  );
}

/** Leaving (anyone) and deleting ($delete_team), each behind a confirming second click. */
function TeamExit({ team, user, canDelete }: { team: ReactTeam; user: ReactUser; canDelete: boolean }) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState<"leave" | "delete" | null>(null);
  const action = useAction();
  const confirmButton = (kind: "leave" | "delete", work: () => Promise<unknown>) =>
    confirming === kind ? (
      <>
        <button
          type="button"
          className="stack-button stack-danger"
          disabled={action.pending}
          onClick={() => action.run(t("teams.done"), work)}
        >
          {t(kind === "leave" ? "teams.confirmLeave" : "teams.confirmDelete")}
        </button>
        <button type="button" className="stack-button stack-secondary" onClick={() => setConfirming(null)}>
          {t("common.cancel")}
        </button>
      </>
    ) : (
      <button type="button" className="stack-button stack-danger" onClick={() => setConfirming(kind)}>
        {t(kind === "leave" ? "teams.leave" : "teams.delete")}
      </button>
    );
  return (
    <section className="stack-section" aria-labelledby={`team-exit-${team.id}`}>
      <h3 id={`team-exit-${team.id}`}>{t("teams.exitHeading")}</h3>
      <FormAlert message={action.error} />
      <div className="stack-actions">
        {confirming !== "delete" ? confirmButton("leave", () => user.leaveTeam(team)) : null}
        {canDelete && confirming !== "leave" ? confirmButton("delete", () => team.delete()) : null}
      </div>
    </section>
  );
}
