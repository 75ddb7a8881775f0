/**
 * `/projects/{id}/permissions`: a project's team and project permission definitions (the `$…`
 * system ones included, read-only), with create and delete, through the owner's admin app.
 */
import type { MetaFunction } from "@remix-run/cloudflare";
import { useParams } from "@remix-run/react";
import { useCallback, useEffect, useState } from "react";
import type { PermissionDefinition } from "../../../sdk/src";
import { useUser } from "../../../sdk/src/react";
import { DashboardShell } from "../components/dashboard-shell";
import { type NewDefinition, PermissionDefinitionForm, type Scope } from "../components/permission-definition-form";
import { RouteError } from "../components/route-error";
import type { OwnedProject, OwnerUser } from "../lib/dashboard-types";

export const meta: MetaFunction = () => [{ title: "Permissions · Doorman" }];

export default function ProjectPermissionsRoute() {
  return (
    <DashboardShell>
      <ProjectPermissions />
    </DashboardShell>
  );
}

type Definitions = Record<Scope, PermissionDefinition[]>;

async function loadDefinitions(project: OwnedProject): Promise<Definitions> {
  const [team, projectScope] = await Promise.all([
    project.app.listTeamPermissionDefinitions(),
    project.app.listProjectPermissionDefinitions(),
  ]);
  return { team, project: projectScope };
}

function ProjectPermissions() {
  const { projectId } = useParams();
  const user = useUser({ or: "redirect" }) as OwnerUser;
  const [project, setProject] = useState<OwnedProject | null>(null);
  const [definitions, setDefinitions] = useState<Definitions | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    (async () => {
      const owned = (await user.listOwnedProjects()).find((p) => p.id === projectId);
      if (!owned) throw new Error("This project does not exist or is not yours.");
      const loaded = await loadDefinitions(owned);
      if (!live) return;
      setProject(owned);
      setDefinitions(loaded);
    })().catch((e: unknown) => live && setError(e instanceof Error ? e.message : "Could not load the permissions."));
    return () => {
      live = false;
    };
  }, [user, projectId]);

  const onCreate = useCallback(
    async ({ scope, ...options }: NewDefinition) => {
      if (!project) return;
      if (scope === "team") await project.app.createTeamPermissionDefinition(options);
      else await project.app.createProjectPermissionDefinition(options);
      setDefinitions(await loadDefinitions(project));
    },
    [project],
  );

  const onDelete = useCallback(
    async (scope: Scope, id: string) => {
      if (!project) return;
      setActionError(null);
      try {
        if (scope === "team") await project.app.deleteTeamPermissionDefinition(id);
        else await project.app.deleteProjectPermissionDefinition(id);
        setDefinitions(await loadDefinitions(project));
      } catch (e) {
        setActionError(e instanceof Error ? e.message : "Could not delete the permission.");
      }
    },
    [project],
  );

  return (
    <>
      <div className="page-heading">
        <p>
          <a href="/projects">← Projects</a>
        </p>
        <h1>Permissions{project ? ` · ${project.displayName}` : ""}</h1>
        <p className="muted">
          Team permissions are held per team; project permissions per user. A permission grants everything it contains.
        </p>
      </div>
      {error ? (
        <p className="alert" role="alert">
          {error}
        </p>
      ) : definitions === null ? (
        <p className="muted" role="status">
          Loading…
        </p>
      ) : (
        <>
          {actionError ? (
            <p className="alert" role="alert">
              {actionError}
            </p>
          ) : null}
          <DefinitionTable title="Team permissions" scope="team" items={definitions.team} onDelete={onDelete} />
          <DefinitionTable title="Project permissions" scope="project" items={definitions.project} onDelete={onDelete} />
          <PermissionDefinitionForm existing={definitions} onCreate={onCreate} />
        </>
      )}
    </>
  );
}

function DefinitionTable(props: {
  title: string;
  scope: Scope;
  items: PermissionDefinition[];
  onDelete: (scope: Scope, id: string) => void;
}) {
  return (
    <section className="panel" aria-label={props.title}>
      <h2>{props.title}</h2>
      {props.items.length === 0 ? (
        <p className="empty">None yet.</p>
      ) : (
        <table className="permission-table">
          <thead>
            <tr>
              <th scope="col">Id</th>
              <th scope="col">Description</th>
              <th scope="col">Contains</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {props.items.map((d) => (
              <tr key={d.id}>
                <td>
                  <code>{d.id}</code>
                </td>
                <td>{d.description ?? ""}</td>
                <td>{d.containedPermissionIds.length ? d.containedPermissionIds.join(", ") : <span className="muted">—</span>}</td>
                <td>
                  {d.id.startsWith("$") ? (
                    <span className="muted">built in</span>
                  ) : (
                    <button type="button" className="btn btn-secondary btn-small" onClick={() => props.onDelete(props.scope, d.id)}>
                      Delete<span className="visually-hidden"> {d.id}</span>
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
