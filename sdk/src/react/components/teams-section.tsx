/**
 * Teams in account settings: the selected-team switcher, a create-team form (when the project
 * lets end users create teams) and the selected team's settings.
 */
import { type FormEvent, useId, useState } from "react";
import type { ReactUser } from "../app-types";
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
      setError(messageOf(e));
    }
    setPending(false);
  };
  return (
    <div className="stack-field">
      <label htmlFor={id}>Selected team</label>
      <select
        id={id}
        className="stack-input"
        value={user.selectedTeam?.id ?? ""}
        disabled={pending}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="">No team selected</option>
        {teams.map((t) => (
          <option key={t.id} value={t.id}>
            {t.displayName}
          </option>
        ))}
      </select>
      <FormAlert message={error} />
    </div>
  );
}

function CreateTeamForm({ user }: { user: ReactUser }) {
  const refreshUser = useRefreshUser();
  const [name, setName] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = name.trim();
    if (!value) return setFieldError("Enter a team name.");
    if (value.length > 256) return setFieldError("Team name must be at most 256 characters.");
    setPending(true);
    setError(null);
    try {
      await user.createTeam({ displayName: value });
      await refreshUser();
      setName("");
      setStatus(`Team ${value} created.`);
    } catch (e) {
      setError(messageOf(e));
    }
    setPending(false);
  };
  return (
    <form className="stack-form" noValidate onSubmit={onSubmit} aria-label="Create a team">
      <FormAlert message={error} />
      <Field
        label="New team name"
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
          {pending ? "Creating…" : "Create team"}
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
  const canCreate = useProjectFlag("client_team_creation_enabled") === true;
  const selected = teams.find((t) => t.id === user.selectedTeam?.id) ?? null;
  return (
    <section className="stack-section" aria-labelledby="stack-teams-heading">
      <h2 id="stack-teams-heading">Teams</h2>
      {teams.length > 0 ? <SelectedTeamSwitcher /> : <p className="stack-hint">You are not in any team yet.</p>}
      {canCreate ? <CreateTeamForm user={user} /> : null}
      {selected ? <TeamSettings key={selected.id} team={selected} /> : null}
    </section>
  );
}
