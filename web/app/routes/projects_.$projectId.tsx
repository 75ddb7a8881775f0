/**
 * `/projects/:projectId/*`: the console frame of one project: the dashboard shell, the project's
 * navigation (the current page marked with aria-current), the assistant panel and toasts. It loads
 * the owned project through the owner's session and hands it to the pages (useProject()). The frame
 * and navigation are server-rendered (console-frame.tsx): there before hydration and while loading.
 */

import { useUser } from "@doorman/sdk/react";
import { Outlet, useParams } from "@remix-run/react";
import { useCallback, useEffect, useState } from "react";
import { AssistantPanel, AssistantToggle, useAssistantToggle } from "../components/assistant/assistant-panel";
import { ProjectFrame } from "../components/console-frame";
import { useToasts } from "../components/console-ui";
import { DashboardShell } from "../components/dashboard-shell";
import { RouteError } from "../components/route-error";
import type { OwnedProject, OwnerUser } from "../lib/dashboard-types";
import type { ProjectContext } from "../lib/project-context";

export default function ProjectLayoutRoute() {
  return (
    <DashboardShell>
      <ProjectLayout />
    </DashboardShell>
  );
}

function ProjectLayout() {
  const { projectId } = useParams();
  const owner = useUser({ or: "redirect" }) as OwnerUser;
  const [project, setProject] = useState<OwnedProject | null | "missing">(null);
  const [error, setError] = useState<string | null>(null);
  const { toasts, toast } = useToasts();
  const assistant = useAssistantToggle();

  const reloadProject = useCallback(async () => {
    const owned = (await owner.listOwnedProjects()).find((p) => p.id === projectId);
    if (!owned) {
      setProject("missing");
      throw new Error("This project does not exist or is not yours.");
    }
    setProject(owned);
    return owned;
  }, [owner, projectId]);

  useEffect(() => {
    setProject(null);
    reloadProject().catch((e: unknown) => setError(e instanceof Error ? e.message : "Could not load the project."));
  }, [reloadProject]);

  if (project === "missing") {
    return (
      <section className="page-error" aria-labelledby="missing-title">
        <h1 id="missing-title">Project not found</h1>
        <p>This project does not exist, or it belongs to a team you are not in.</p>
        <a className="btn btn-secondary" href="/projects">
          Back to your projects
        </a>
      </section>
    );
  }
  if (error || project === null) {
    // The frame and its navigation stay while the project loads (they need only its id).
    return (
      <ProjectFrame projectId={projectId ?? ""} title={<strong>Project</strong>}>
        {error ? (
          <p className="alert" role="alert">
            {error}
          </p>
        ) : (
          <p className="muted" role="status">
            Loading the project…
          </p>
        )}
      </ProjectFrame>
    );
  }
  const context: ProjectContext = { project, owner, reloadProject, toast };
  return (
    <>
      <ProjectFrame
        projectId={project.id}
        title={
          <>
            <strong>{project.displayName}</strong>
            {project.isProductionMode ? <span className="badge">production</span> : <span className="badge badge-dev">development</span>}
          </>
        }
        controls={<AssistantToggle state={assistant} />}
      >
        <Outlet context={context} />
      </ProjectFrame>
      <AssistantPanel project={project} state={assistant} />
      {toasts}
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
