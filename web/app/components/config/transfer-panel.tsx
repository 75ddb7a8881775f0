/**
 * Moves the project to another team of the owner (POST /internal/projects/transfer on the
 * internal project, as the signed-in owner), behind a confirmation that says who gains and who
 * loses access.
 */

import type { UserTeam } from "@doorman/sdk";
import { useEffect, useId, useState } from "react";
import { errorMessage, useProject } from "../../lib/project-context";
import { ConfirmButton } from "../console-ui";

export function TransferPanel() {
  const { project, owner, reloadProject, toast } = useProject();
  const selectId = useId();
  const [teams, setTeams] = useState<UserTeam[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [target, setTarget] = useState("");

  useEffect(() => {
    let live = true;
    owner
      .listTeams()
      .then((list) => live && setTeams(list))
      .catch((e: unknown) => live && setError(errorMessage(e, "Could not load your teams.")));
    return () => {
      live = false;
    };
  }, [owner]);

  const current = teams?.find((t) => t.id === project.ownerTeamId);
  const others = (teams ?? []).filter((t) => t.id !== project.ownerTeamId);
  const chosen = others.find((t) => t.id === target) ?? others[0];

  const transfer = async () => {
    if (!chosen) return;
    await owner.transferProject(project.id, chosen.id);
    await reloadProject();
    toast(`${project.displayName} now belongs to ${chosen.displayName}.`);
  };

  return (
    <section className="panel form" aria-labelledby="transfer-heading">
      <h2 id="transfer-heading">Transfer the project</h2>
      <p className="muted">
        It belongs to the team <strong>{current?.displayName ?? "(a team you are in)"}</strong>. Every member of the owning team can manage
        it.
      </p>
      {error ? (
        <p className="alert" role="alert">
          {error}
        </p>
      ) : teams === null ? (
        <p className="muted" role="status">
          Loading your teams…
        </p>
      ) : others.length === 0 ? (
        <p className="empty">You are in no other team. Create or join another team to move the project there.</p>
      ) : (
        <>
          <div className="field">
            <label htmlFor={selectId}>New owner team</label>
            <select id={selectId} className="input" value={chosen?.id ?? ""} onChange={(e) => setTarget(e.target.value)}>
              {others.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.displayName}
                </option>
              ))}
            </select>
          </div>
          <div className="form-actions">
            <ConfirmButton
              label="Transfer project"
              title={`Move ${project.displayName} to ${chosen?.displayName}?`}
              consequence={`Members of ${current?.displayName ?? "the current team"} who are not in ${chosen?.displayName} lose access to this project, its users and its keys. Members of ${chosen?.displayName} gain full access.`}
              confirmLabel="Transfer"
              onConfirm={transfer}
            />
          </div>
        </>
      )}
    </section>
  );
}
