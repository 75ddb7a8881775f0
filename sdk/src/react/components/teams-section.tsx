/**
 * Teams in account settings: the selected-team switcher, a create-team form (when the project
 * lets end users create teams) and the selected team's settings.
 */
import { type FormEvent, useId, useState } from "react";
import type { ReactUser } from "../app-types";
import { useTranslation } from "../i18n/context";
import { useProjectFlag } from "../use-project";
import { useTeams } from "../use-teams";
import { useRefreshUser, useUser } from "../use-user";
import { messageOf } from "./code-messages";
import { Field, FormAlert } from "./field";
import { TeamSettings } from "./team-settings";

/**
 * A select of the user's teams; choosing one makes it the selected team.
 *
 * @example
 * <SelectedTeamSwitcher />
 */
export function SelectedTeamSwitcher() {
  const user = useUser({ or: "redirect" });
  const teams = useTeams();
  const refreshUser = useRefreshUser();
  const { t } = useTranslation();
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const onChange = async (value: string) => {
    setPending(true);
    setError(null);
    try {
      await user.setSelectedTeam(value || null);
      await refreshUser();
    } catch (e) {
      setError(messageOf(e, t("common.somethingWrong")));
    }
    setPending(false);
  };
  return (
    <div className="stack-field">
      <label htmlFor={id}>{t("teams.selected")}</label>
      <select
        id={id}
        className="stack-input"
        value={user.selectedTeam?.id ?? ""}
        disabled={pending}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="">{t("teams.noneSelected")}</option>
        {teams.map((team) => (
          <option key={team.id} value={team.id}>
            {team.displayName}
          </option>
        ))}
      </select>
      <FormAlert message={error} />
    </div>
  );
}

function CreateTeamForm({ user }: { user: ReactUser }) {
  const refreshUser = useRefreshUser();
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = name.trim();
    if (!value) return setFieldError(t("teams.enterName"));
    if (value.length > 256) return setFieldError(t("teams.nameTooLong", { max: 256 }));
    setPending(true);
    setError(null);
    try {
      await user.createTeam({ displayName: value });
      await refreshUser();
      setName("");
      setStatus(t("teams.created", { name: value }));
    } catch (e) {
      setError(messageOf(e, t("common.somethingWrong")));
    }
    setPending(false);
  };
  return (
    <form className="stack-form" noValidate onSubmit={onSubmit} aria-label={t("teams.createLabel")}>
      <FormAlert message={error} />
      <Field
        label={t("teams.newName")}
        name="newTeamName"
        value={name}
        error={fieldError}
        onChange={(e) => {
          setName(e.target.value);
          setFieldError(null);
          setStatus(null);
        }}
      />
      <div className="stack-actions">
        <button className="stack-button stack-secondary" type="submit" disabled={pending}>
          {pending ? t("teams.creating") : t("teams.create")}
        </button>
        <span role="status" aria-live="polite" className="stack-hint">
          {status ?? ""}
        </span>
      </div>
    </form>
  );
}

/**
 * @example
 * <TeamsSection user={useUser({ or: "redirect" })} />
 */
export function TeamsSection({ user }: { user: ReactUser }) {
  const teams = useTeams();
  const { t } = useTranslation();
  const canCreate = useProjectFlag("client_team_creation_enabled") === true;
  const selected = teams.find((team) => team.id === user.selectedTeam?.id) ?? null;
  return (
    <section className="stack-section" aria-labelledby="stack-teams-heading">
      <h2 id="stack-teams-heading">{t("teams.heading")}</h2>
      {teams.length > 0 ? <SelectedTeamSwitcher /> : <p className="stack-hint">{t("teams.none")}</p>}

      {canCreate ? <CreateTeamForm user={user} /> : null}
      {selected ? <TeamSettings key={selected.id} team={selected} /> : null}
    </section>
  );
}
