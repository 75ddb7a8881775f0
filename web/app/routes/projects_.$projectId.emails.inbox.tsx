/**
 * `/projects/{id}/emails/inbox`: the dev inbox (development only). The real messages the project
 * sent through the dev outbox (a shared email server with no platform sender), newest first, with
 * the codes and links to finish a sign-up or sign-in locally. Production has no such inbox: the
 * page says so, and the log keeps its redacted copy.
 */

import type { DevInboxEntry } from "@doorman/sdk";
import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { useCallback } from "react";
import { Loaded } from "../components/console-ui";
import { DevInboxMessages } from "../components/emails/dev-inbox-messages";
import { EmailsHeading } from "../components/emails/emails-heading";
import { RouteError } from "../components/route-error";
import { useProject } from "../lib/project-context";
import { useLoad } from "../lib/use-load";

export const meta: MetaFunction = () => [{ title: "Dev inbox · Doorman" }];

type Inbox = { messages: DevInboxEntry[] } | { unavailable: true };

export default function DevInboxRoute() {
  const { project } = useProject();
  const app = project.app;
  const load = useCallback(async (): Promise<Inbox> => {
    const messages = await app.listDevInbox();
    return messages ? { messages } : { unavailable: true };
  }, [app]);
  const inbox = useLoad(load, "the dev inbox");
  const loadBody = useCallback((id: string) => app.getDevInboxMessage(id), [app]);

  return (
    <>
      <EmailsHeading title={`Dev inbox · ${project.displayName}`} projectId={project.id}>
        <p className="muted">
          Development only: the emails this project sent through the shared email server, as the recipient gets them, with their codes and
          links. The latest 50 are kept for one hour.
        </p>
      </EmailsHeading>
      <section className="panel" aria-labelledby="dev-inbox-heading">
        <div className="panel-heading">
          <h2 id="dev-inbox-heading">Messages</h2>
          <button type="button" className="btn btn-secondary btn-small" onClick={() => void inbox.reload()}>
            Refresh
          </button>
        </div>
        <Loaded value={inbox.value} error={inbox.error} what="the dev inbox">
          {(value) =>
            "unavailable" in value ? (
              <p>
                The dev inbox exists only on a development worker (<code>npm start</code>). Here email goes through the email server, and
                the <Link to={`/projects/${project.id}/emails`}>email log</Link> keeps a copy with codes and secret links redacted.
              </p>
            ) : (
              <DevInboxMessages
                messages={value.messages}
                loadBody={loadBody}
                empty="No messages yet. Sign up on one of this project's sign-up pages, and the verification email shows here."
              />
            )
          }
        </Loaded>
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
