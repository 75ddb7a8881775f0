/**
 * `/projects/{id}/emails`: the email server (shared, or the owner's SMTP with a test email), a
 * sign-in invitation, and the email log (newest first, redacted) with a detail view per email.
 */

import type { SentEmail } from "@doorman/sdk";
import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { useCallback, useEffect, useState } from "react";
import { DataTable } from "../components/data-table";
import { DevInboxCallout } from "../components/emails/dev-inbox-callout";
import { EmailServerForm } from "../components/emails/email-server-form";
import { EmailsHeading } from "../components/emails/emails-heading";
import { SignInInvitationForm } from "../components/emails/sign-in-invitation-form";
import { RouteError } from "../components/route-error";
import { formatTimestamp } from "../lib/format";
import { errorMessage, useProject } from "../lib/project-context";

export const meta: MetaFunction = () => [{ title: "Emails · Doorman" }];

export default function ProjectEmailsRoute() {
  return <ProjectEmails />;
}

function ProjectEmails() {
  const { project, reloadProject, toast } = useProject();
  const [emails, setEmails] = useState<SentEmail[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const loadLog = useCallback(
    () =>
      project.app
        .listSentEmails({ limit: 200 })
        .then(setEmails)
        .catch((e: unknown) => setError(errorMessage(e, "Could not load the emails."))),
    [project],
  );
  useEffect(() => {
    loadLog();
  }, [loadLog]);
  const afterChange = useCallback(
    async (message: string) => {
      toast(message);
      await Promise.all([reloadProject(), loadLog()]);
    },
    [toast, reloadProject, loadLog],
  );

  return (
    <>
      <EmailsHeading title={`Emails · ${project.displayName}`} projectId={project.id}>
        <p className="muted">Every email this project sent or tried to send, newest first. Codes and secret links are redacted.</p>
      </EmailsHeading>
      <DevInboxCallout project={project} />
      <section className="panel">
        <EmailServerForm project={project} onSaved={afterChange} />
      </section>
      <section className="panel">
        <SignInInvitationForm project={project} onSent={afterChange} />
      </section>
      <section className="panel" aria-label="Email log">
        <h2>Sent emails</h2>
        {error ? (
          <p className="alert" role="alert">
            {error}
          </p>
        ) : emails === null ? (
          <p className="muted" role="status">
            Loading…
          </p>
        ) : (
          <DataTable isEmpty={emails.length === 0} empty="No emails yet." className="email-table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">To</th>
                <th scope="col">Subject</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {emails.map((e) => (
                <tr key={e.id}>
                  <td>{formatTimestamp(e.sentAt)}</td>
                  <td>{e.to.join(", ")}</td>
                  <td>
                    <Link to={`/projects/${project.id}/emails/${e.id}`}>{e.subject}</Link>
                  </td>
                  <td>
                    <span className={`status status-${e.status}`}>{e.status}</span>
                    {e.error ? <div className="muted email-error">{e.error}</div> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        )}
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
