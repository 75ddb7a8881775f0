/**
 * The project's default permission sets: what a team's creator and its members get on joining,
 * and what every new user gets (project permissions). Saved through the project config.
 */

import type { PermissionDefinition } from "@doorman/sdk";
import { useId, useState } from "react";
import type { OwnedProject } from "../lib/dashboard-types";
import { Alert, useAction } from "./console-ui";

type SetKey = "teamCreatorDefaultPermissions" | "teamMemberDefaultPermissions" | "userDefaultPermissions";

const SETS: { key: SetKey; label: string; scope: "team" | "project"; hint: string }[] = [
  { key: "teamCreatorDefaultPermissions", label: "Team creator", scope: "team", hint: "Granted in a team to the user who creates it." },
  { key: "teamMemberDefaultPermissions", label: "Team member", scope: "team", hint: "Granted in a team to everyone who joins it." },
  { key: "userDefaultPermissions", label: "User", scope: "project", hint: "Project permissions every new user gets at sign-up." },
];

const idsOf = (value: unknown): string[] => (Array.isArray(value) ? value.map((p) => String((p as { id: string }).id)) : []);

export function DefaultPermissionsForm(props: {
  project: OwnedProject;
  definitions: Record<"team" | "project", PermissionDefinition[]>;
  onSaved: () => Promise<void>;
}) {
  const config = props.project.config;
  const [sets, setSets] = useState<Record<SetKey, string[]>>(() => ({
    teamCreatorDefaultPermissions: idsOf(config.teamCreatorDefaultPermissions),
    teamMemberDefaultPermissions: idsOf(config.teamMemberDefaultPermissions),
    userDefaultPermissions: idsOf(config.userDefaultPermissions),
  }));
  const { busy, error, run } = useAction();
  const id = useId();
  const toggle = (key: SetKey, permission: string, on: boolean) =>
    setSets((s) => ({ ...s, [key]: on ? [...s[key], permission] : s[key].filter((p) => p !== permission) }));
  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    const update = Object.fromEntries(SETS.map(({ key }) => [key, sets[key].map((p) => ({ id: p }))]));
    if (await run(() => props.project.update({ config: update }), "Could not save the default permissions.")) await props.onSaved();
  };
  return (
    <form className="panel form" onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Default permissions</h2>
      {SETS.map((set) => (
        <fieldset key={set.key} className="field permission-contains">
          <legend>{set.label}</legend>
          <p className="muted">{set.hint}</p>
          {props.definitions[set.scope].length === 0 ? (
            <p className="muted">No {set.scope} permissions yet.</p>
          ) : (
            props.definitions[set.scope].map((d) => (
              <label key={d.id} className="permission-option">
                <input type="checkbox" checked={sets[set.key].includes(d.id)} onChange={(e) => toggle(set.key, d.id, e.target.checked)} />{" "}
                <code>{d.id}</code>
              </label>
            ))
          )}
        </fieldset>
      ))}
      <Alert message={error} />
      <button type="submit" className="btn" disabled={busy}>
        {busy ? "Saving…" : "Save default permissions"}
      </button>
    </form>
  );
}
