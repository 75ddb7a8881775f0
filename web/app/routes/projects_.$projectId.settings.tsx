/**
 * `/projects/{id}/settings`: the project's name and description, production mode with its
 * checks, the session policy, the answer to a database outage, signing out all users, the rate limits, the console assistant's model provider (#assistant), transfer to
 * another of the owner's teams, and delete (by typing the project's name).
 */
import type { MetaFunction } from "@remix-run/cloudflare";
import { useNavigate } from "@remix-run/react";
import { AssistantSettings } from "../components/assistant/assistant-settings";
import { DegradedReadsToggle } from "../components/config/degraded-reads-toggle";
import { ProductionModePanel } from "../components/config/production-mode-panel";
import { ProjectDetailsForm } from "../components/config/project-details-form";
import { RateLimitsForm } from "../components/config/rate-limits-form";
import { SessionPolicyForm } from "../components/config/session-policy-form";
import { SignOutAllPanel } from "../components/config/sign-out-all-panel";
import { TransferPanel } from "../components/config/transfer-panel";
import { ConfirmButton, PageHeading } from "../components/console-ui";
import { RouteError } from "../components/route-error";
import { formatShortDay } from "../lib/format";
import { useProject } from "../lib/project-context";

export const meta: MetaFunction = () => [{ title: "Settings · Doorman" }];

export default function SettingsRoute() {
  const { project } = useProject();
  const navigate = useNavigate();
  return (
    <>
      <PageHeading title={`Settings · ${project.displayName}`}>
        <p className="muted">
          Project id <code>{project.id}</code>, created {formatShortDay(project.createdAt)}.
        </p>
      </PageHeading>
      <ProjectDetailsForm displayName={project.displayName} description={project.description} />
      <ProductionModePanel project={project} />
      <SessionPolicyForm project={project} />
      <DegradedReadsToggle project={project} />
      <SignOutAllPanel />
      <RateLimitsForm project={project} />
      <AssistantSettings />
      <TransferPanel />
      <section className="panel danger-zone" aria-labelledby="delete-heading">
        <h2 id="delete-heading">Delete the project</h2>
        <p className="muted">Deletes every user, team, session, key and setting of this project. Apps using it stop working.</p>
        <ConfirmButton
          label="Delete project"
          title={`Delete ${project.displayName}?`}
          consequence={`All of its users, teams, sessions, API keys, emails and settings are deleted for good, and every app using project ${project.id} stops working. This cannot be undone.`}
          confirmLabel="Delete project"
          typeToConfirm={project.displayName}
          onConfirm={async () => {
            await project.delete();
            navigate("/projects", { replace: true });
          }}
        />
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
