/**
 * `/projects/{id}/emails`: a project's email log (newest first), with the error of every
 * failed send, read through the owner's admin app.
 */
import type { MetaFunction } from "@remix-run/cloudflare";
import { useParams } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { SentEmail } from "../../../sdk/src";
import { useUser } from "../../../sdk/src/react";
import { DashboardShell } from "../components/dashboard-shell";
import { RouteError } from "../components/route-error";
import type { OwnedProject, OwnerUser } from "../lib/dashboard-types";

export const meta: MetaFunction = () => [{ title: "Emails · Doorman" }];

export default function ProjectEmailsRoute() {
  return (
    <DashboardShell>
      <ProjectEmails />
    </DashboardShell>
  );
}

function ProjectEmails() {
  const { projectId } = useParams();
  const user = useUser({ or: "redirect" }) as OwnerUser;
  const [project, setProject] = useState<OwnedProject | null>(null);
  const [emails, setEmails] = useState<SentEmail[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    (async () => {
      const owned = (await user.listOwnedProjects()).find((p) => p.id === projectId);
      if (!owned) throw new Error("This project does not exist or is not yours.");
      if (!live) return;
      setProject(owned);
      const list = await owned.app.listSentEmails({ limit: 200 });
      if (live) setEmails(list);
    })().catch((e: unknown) => live && setError(e instanceof Error ? e.message : "Could not load the emails."));
    return () => {
      live = false;
    };
  }, [user, projectId]);

  return (
    <>
      <div className="page-heading">
        <p>
          <a href="/projects">← Projects</a>
        </p>
        <h1>Emails{project ? ` · ${project.displayName}` : ""}</h1>
        <p className="muted">Every email this project sent or tried to send, newest first.</p>
      </div>
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
