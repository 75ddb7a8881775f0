/**
 * `/projects/:projectId/teams`: every team of the project (searchable by name or id, newest
 * first) and the "Create a team" form, through the owner's admin app.
 */

import type { ServerTeam } from "@doorman/sdk";
import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { useCallback, useEffect, useId, useMemo, useState } from "react";
import { PageHeading } from "../components/console-ui";
import { DataTable, IdText } from "../components/data-table";
import { RouteError } from "../components/route-error";
import { CreateTeamForm } from "../components/teams/create-team-form";
import { formatDay } from "../lib/format";
import { errorMessage, useProject } from "../lib/project-context";

export const meta: MetaFunction = () => [{ title: "Teams · Doorman" }];

const PAGE_SIZE = 50;

export default function ProjectTeamsRoute() {
  const { project, toast } = useProject();
  const [teams, setTeams] = useState<ServerTeam[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    project.app
      .listTeams()
      .then((list) => live && setTeams(list.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())))
      .catch((e: unknown) => live && setError(errorMessage(e, "Could not load the teams.")));
    return () => {
      live = false;
    };
  }, [project]);

  const onCreate = useCallback(
    async (options: { displayName: string; creatorUserId?: string }) => {
      const team = await project.app.createTeam(options);
      setTeams((list) => [team, ...(list ?? [])]);
      toast(`Team ${team.displayName} created.`);
      return team;
    },
    [project, toast],
  );

  return (
    <div className="team-page">
      <PageHeading title={`Teams · ${project.displayName}`}>
        <p className="muted">Teams group users; each member holds team permissions in each of their teams.</p>
      </PageHeading>
      {error ? (
        <p className="alert" role="alert">
          {error}
        </p>
      ) : teams === null ? (
        <p className="muted" role="status">
          Loading the teams…
        </p>
      ) : (
        <TeamTable projectId={project.id} teams={teams} />
      )}
      <CreateTeamForm project={project} onCreate={onCreate} />
    </div>
  );
}

function TeamTable({ projectId, teams }: { projectId: string; teams: ServerTeam[] }) {
  const id = useId();
  const [query, setQuery] = useState("");
  const [shown, setShown] = useState(PAGE_SIZE);
  const matches = useMemo(() => {
    const q = query.trim().toLowerCase();
    return q ? teams.filter((t) => t.displayName.toLowerCase().includes(q) || t.id.toLowerCase().includes(q)) : teams;
  }, [teams, query]);

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>All teams</h2>
      {teams.length === 0 ? (
        <p className="empty">No teams yet. Create the first one below.</p>
      ) : (
        <>
          <div className="field team-search">
            <label htmlFor={`${id}-search`}>Search teams by name or id</label>
            <input id={`${id}-search`} className="input" type="search" value={query} onChange={(e) => setQuery(e.target.value)} />
          </div>
          <p className="muted" role="status">
            {matches.length === teams.length
              ? `${teams.length} ${teams.length === 1 ? "team" : "teams"}`
              : `${matches.length} of ${teams.length} teams`}
          </p>
          <DataTable
            isEmpty={matches.length === 0}
            empty={<>No team matches “{query.trim()}”.</>}
            className="team-table"
            stack={["Name", "Id", "Created"]}
          >
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Id</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {matches.slice(0, shown).map((team) => (
                <tr key={team.id}>
                  <td>
                    <Link to={`/projects/${projectId}/teams/${team.id}`}>{team.displayName}</Link>
                  </td>
                  <td>
                    <IdText id={team.id} />
                  </td>
                  <td>{formatDay(team.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </DataTable>
          {matches.length > shown ? (
            <button type="button" className="btn btn-secondary" onClick={() => setShown((n) => n + PAGE_SIZE)}>
              Show {Math.min(PAGE_SIZE, matches.length - shown)} more
            </button>
          ) : null}
        </>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
