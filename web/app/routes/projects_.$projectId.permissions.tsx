/**
 * `/projects/{id}/permissions`: a project's team and project permission definitions (the `$…`
 * system ones included, read-only), with create and delete, through the owner's admin app.
 */

import type { PermissionDefinition } from "@doorman/sdk";
import type { MetaFunction } from "@remix-run/cloudflare";
import { useCallback, useEffect, useState } from "react";
import { ConfirmButton, PageHeading } from "../components/console-ui";
import { DataTable } from "../components/data-table";
import { DefaultPermissionsForm } from "../components/default-permissions-form";
import { type NewDefinition, PermissionDefinitionForm, type Scope } from "../components/permission-definition-form";
import { PermissionEditButton } from "../components/permission-edit-button";
import { RouteError } from "../components/route-error";
import type { OwnedProject } from "../lib/dashboard-types";
import { errorMessage, useProject } from "../lib/project-context";

export const meta: MetaFunction = () => [{ title: "Permissions · Doorman" }];

export default function ProjectPermissionsRoute() {
  return <ProjectPermissions />;
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
  const { project, reloadProject, toast } = useProject();
  const [definitions, setDefinitions] = useState<Definitions | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    loadDefinitions(project)
      .then((loaded) => live && setDefinitions(loaded))
      .catch((e: unknown) => live && setError(errorMessage(e, "Could not load the permissions.")));
    return () => {
      live = false;
    };
  }, [project]);

  const onCreate = useCallback(
    async ({ scope, ...options }: NewDefinition) => {
      if (scope === "team") await project.app.createTeamPermissionDefinition(options);
      else await project.app.createProjectPermissionDefinition(options);
      setDefinitions(await loadDefinitions(project));
      toast(`Permission ${options.id} created.`);
    },
    [project, toast],
  );

  const onDelete = useCallback(
    async (scope: Scope, id: string) => {
      if (scope === "team") await project.app.deleteTeamPermissionDefinition(id);
      else await project.app.deleteProjectPermissionDefinition(id);
      setDefinitions(await loadDefinitions(project));
      // A deleted permission also leaves the default sets: show the project's new config.
      await reloadProject();
      toast(`Permission ${id} deleted.`);
    },
    [project, toast, reloadProject],
  );

  const onEdit = useCallback(
    async (scope: Scope, id: string, update: { description: string; containedPermissionIds: string[] }) => {
      if (scope === "team") await project.app.updateTeamPermissionDefinition(id, update);
      else await project.app.updateProjectPermissionDefinition(id, update);
      setDefinitions(await loadDefinitions(project));
      toast(`Permission ${id} saved.`);
    },
    [project, toast],
  );

  return (
    <>
      <PageHeading title={`Permissions · ${project.displayName}`}>
        <p className="muted">
          Team permissions are held per team; project permissions per user. A permission grants everything it contains.
        </p>
      </PageHeading>
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
          <DefinitionTable title="Team permissions" scope="team" items={definitions.team} onDelete={onDelete} onEdit={onEdit} />
          <DefinitionTable title="Project permissions" scope="project" items={definitions.project} onDelete={onDelete} onEdit={onEdit} />
          <PermissionDefinitionForm existing={definitions} onCreate={onCreate} />
          <DefaultPermissionsForm
            key={JSON.stringify([
              project.config.teamCreatorDefaultPermissions,
              project.config.teamMemberDefaultPermissions,
              project.config.userDefaultPermissions,
            ])}
            project={project}
            definitions={definitions}
            onSaved={async () => {
              await reloadProject();
              toast("Default permissions saved.");
            }}
          />
        </>
      )}
    </>
  );
}

function DefinitionTable(props: {
  title: string;
  scope: Scope;
  items: PermissionDefinition[];
  onDelete: (scope: Scope, id: string) => Promise<void>;
  onEdit: (scope: Scope, id: string, update: { description: string; containedPermissionIds: string[] }) => Promise<void>;
}) {
  return (
    <section className="panel" aria-label={props.title}>
      <h2>{props.title}</h2>
      <DataTable
        isEmpty={props.items.length === 0}
        empty="None yet."
        className="permission-table"
        stack={["Id", "Description", "Contains", ""]}
      >
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
                  <span className="inline">
                    <PermissionEditButton
                      definition={d}
                      candidates={props.items.filter((other) => other.id !== d.id)}
                      onSave={(update) => props.onEdit(props.scope, d.id, update)}
                    />
                    <ConfirmButton
                      small
                      label="Delete"
                      ariaLabel={`Delete ${d.id}`}
                      title={`Delete the permission ${d.id}?`}
                      consequence="Every grant of it is removed, and other permissions stop containing it. This cannot be undone."
                      confirmLabel="Delete permission"
                      onConfirm={() => props.onDelete(props.scope, d.id)}
                    />
                  </span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </DataTable>
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
