/** On the Emails page of a development worker: where the real messages (codes, links) are, the dev inbox. */
import { Link } from "@remix-run/react";
import type { OwnedProject } from "../../lib/dashboard-types";
import { useDevInboxAvailable } from "./use-dev-inbox";

export function DevInboxCallout({ project }: { project: OwnedProject }) {
  if (useDevInboxAvailable(project) !== true) return null;
  return (
    <section className="panel dev-inbox-callout" aria-labelledby="dev-inbox-callout-heading">
      <h2 id="dev-inbox-callout-heading">Development: read the emails in the dev inbox</h2>
      <p>
        With the shared email server and no SMTP relay, nothing leaves this machine. The log below hides codes and secret links; the dev
        inbox shows each email as the recipient gets it, with its verification links and sign-in codes.
      </p>
      <p>
        <Link className="btn" to={`/projects/${project.id}/emails/inbox`}>
          Open the dev inbox
        </Link>
      </p>
    </section>
  );
}
