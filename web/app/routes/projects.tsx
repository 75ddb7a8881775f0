/**
 * `/projects`: the owner's dashboard. Lists owned projects, creates one, and shows
 * the new project's keys once. Signed-out visitors are sent to sign-in (and back).
 */

import { useUser } from "@doorman/sdk/react";
import type { MetaFunction } from "@remix-run/cloudflare";
import { useCallback, useEffect, useState } from "react";
import { type Created, CreateProjectForm } from "../components/create-project-form";
import { DashboardShell } from "../components/dashboard-shell";
import { NewKeysPanel } from "../components/new-keys-panel";
import { ProjectList } from "../components/project-list";
import { RouteError } from "../components/route-error";
import { VerifyEmailNotice } from "../components/verify-email-notice";
import type { OwnedProject, OwnerUser } from "../lib/dashboard-types";

export const meta: MetaFunction = () => [{ title: "Projects · Doorman" }];

export default function ProjectsRoute() {
  return (
    <DashboardShell>
      <Projects />
    </DashboardShell>
  );
}

function Projects() {
  // The SDK's current user carries the owner methods (listOwnedProjects, createProject).
  const user = useUser({ or: "redirect" }) as OwnerUser;
  const [projects, setProjects] = useState<OwnedProject[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [created, setCreated] = useState<Created | null>(null);

  const reload = useCallback(() => {
    user.listOwnedProjects().then(
      (list) => {
        setProjects(list);
        setLoadError(null);
      },
      (error: unknown) => setLoadError(error instanceof Error ? error.message : "Could not load your projects."),
    );
  }, [user]);

  useEffect(reload, [reload]);

  return (
    <>
      <div className="page-heading">
        <h1>Projects</h1>
        <p className="muted">Each project has its own users, keys and settings.</p>
      </div>
      <VerifyEmailNotice user={user} />
      {created ? (
        <NewKeysPanel
          projectId={created.project.id}
          projectName={created.project.displayName}
          keys={created.keys}
          onDone={() => setCreated(null)}
        />
      ) : (
        <CreateProjectForm
          user={user}
          onCreated={(c) => {
            setCreated(c);
            reload();
          }}
        />
      )}
      <section className="panel" aria-labelledby="project-list-heading">
        <h2 id="project-list-heading">Your projects</h2>
        {loadError ? (
          <p className="alert" role="alert">
            {loadError}
          </p>
        ) : (
          <ProjectList projects={projects} />
        )}
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
