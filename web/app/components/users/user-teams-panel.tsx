/** The teams the user belongs to, each linking to the team's console page. */

import type { ServerUser, StackAdminApp } from "@doorman/sdk";
import { Link } from "@remix-run/react";
import { useCallback, useId } from "react";
import { useLoad } from "../../lib/use-load";

export function UserTeamsPanel({ app, projectId, user }: { app: StackAdminApp; projectId: string; user: ServerUser }) {
  const id = useId();
  const load = useCallback(() => app.listTeams({ userId: user.id }), [app, user.id]);
  const teams = useLoad(load, "the teams");
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Teams</h2>
      {teams.error ? (
        <p className="alert" role="alert">
          {teams.error}
        </p>
      ) : teams.value === null ? (
        <p className="muted" role="status">
          Loading teams…
        </p>
      ) : teams.value.length === 0 ? (
        <p className="empty">Not in any team.</p>
      ) : (
        <ul className="plain-list" aria-label="Teams of this user">
          {teams.value.map((team) => (
            <li key={team.id}>
              <Link to={`/projects/${projectId}/teams/${team.id}`}>{team.displayName}</Link>
              {team.id === user.selectedTeamId ? <span className="badge">selected</span> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
