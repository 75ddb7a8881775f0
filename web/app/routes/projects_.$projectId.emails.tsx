/**
 * `/projects/{id}/emails`: a project's email log (newest first), with the error of every
 * failed send, read through the owner's admin app.
 */
import type { MetaFunction } from "@remix-run/cloudflare";
import { useEffect, useState } from "react";
import type { SentEmail } from "../../../sdk/src";
import { PageHeading } from "../components/console-ui";
import { RouteError } from "../components/route-error";
import { errorMessage, useProject } from "../lib/project-context";

export const meta: MetaFunction = () => [{ title: "Emails · Doorman" }];

export default function ProjectEmailsRoute() {
  return <ProjectEmails />;
}

function ProjectEmails() {
  const { project } = useProject();
  const [emails, setEmails] = useState<SentEmail[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    project.app
      .listSentEmails({ limit: 200 })
      .then((list) => live && setEmails(list))
      .catch((e: unknown) => live && setError(errorMessage(e, "Could not load the emails.")));
    return () => {
      live = false;
    };
  }, [project]);

  return (
    <>
      <PageHeading title={`Emails · ${project.displayName}`}>
        <p className="muted">Every email this project sent or tried to send, newest first. Codes and secret links are redacted.</p>
      </PageHeading>
      <section className="panel" aria-label="Email log">
        {error ? (
          <p className="alert" role="alert">
            {error}
          </p>
        ) : emails === null ? (
          <p className="muted" role="status">
            Loading…
          </p>
        ) : emails.length === 0 ? (
          <p className="empty">No emails yet.</p>
        ) : (
          <table className="email-table">
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
                  <td>{e.sentAt.toLocaleString()}</td>
                  <td>{e.to.join(", ")}</td>
                  <td>{e.subject}</td>
                  <td>
                    <span className={`status status-${e.status}`}>{e.status}</span>
                    {e.error ? <div className="muted email-error">{e.error}</div> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
