/**
 * `/projects/{id}/emails/drafts`: messages being written (TSX, like a template) before they are
 * sent to users; a new draft by name, and deleting one.
 */
import type { MetaFunction } from "@remix-run/cloudflare";
import { Link, useNavigate } from "@remix-run/react";
import { useCallback, useId } from "react";
import { ConfirmButton, Loaded } from "../components/console-ui";
import { DataTable } from "../components/data-table";
import { CreateByNameForm } from "../components/emails/create-by-name";
import { EmailsHeading } from "../components/emails/emails-heading";
import { RouteError } from "../components/route-error";
import { formatDateTime } from "../lib/format";
import { useProject } from "../lib/project-context";
import { useLoad } from "../lib/use-load";

export const meta: MetaFunction = () => [{ title: "Email drafts · Doorman" }];

export default function EmailDraftsRoute() {
  const { project, toast } = useProject();
  const app = project.app;
  const id = useId();
  const navigate = useNavigate();
  const load = useCallback(() => app.listEmailDrafts(), [app]);
  const drafts = useLoad(load, "the drafts");

  const onCreate = async (name: string) => {
    const { id: draftId } = await app.createEmailDraft({ displayName: name });
    toast(`Draft ${name} created.`);
    navigate(`/projects/${project.id}/emails/drafts/${draftId}`);
  };

  return (
    <>
      <EmailsHeading title={`Email drafts · ${project.displayName}`} projectId={project.id}>
        <p className="muted">Write a message with a live preview, then send it to chosen users, a team or everyone.</p>
      </EmailsHeading>
      <section className="panel" aria-labelledby={`${id}-list`}>
        <h2 id={`${id}-list`}>Drafts</h2>
        <Loaded value={drafts.value} error={drafts.error} what="the drafts">
          {(list) => (
            <DataTable isEmpty={list.length === 0} empty="No drafts yet." className="email-table">
              <thead>
                <tr>
                  <th scope="col">Draft</th>
                  <th scope="col">Sent</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((d) => (
                  <tr key={d.id}>
                    <td>
                      <Link to={`/projects/${project.id}/emails/drafts/${d.id}`}>{d.displayName}</Link>
                    </td>
                    <td>{d.sentAt ? formatDateTime(d.sentAt) : <span className="muted">Not sent</span>}</td>
                    <td>
                      <ConfirmButton
                        small
                        label="Delete"
                        ariaLabel={`Delete draft ${d.displayName}`}
                        title={`Delete ${d.displayName}?`}
                        consequence="The draft is deleted. Emails already sent from it stay in the sent log. This cannot be undone."
                        confirmLabel="Delete draft"
                        onConfirm={async () => {
                          await app.deleteEmailDraft(d.id);
                          toast(`Draft ${d.displayName} deleted.`);
                          await drafts.reload();
                        }}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </DataTable>
          )}
        </Loaded>
      </section>
      <CreateByNameForm noun="draft" hint="Only you see it; the subject is written in the draft." onCreate={onCreate} />
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
