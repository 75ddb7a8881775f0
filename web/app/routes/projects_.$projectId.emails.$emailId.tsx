/**
 * `/projects/{id}/emails/{emailId}`: one logged email as stored: codes and secret links are
 * redacted (the log never holds a live credential). The HTML is shown in a sandboxed frame.
 */

import type { SentEmail } from "@doorman/sdk";
import type { MetaFunction } from "@remix-run/cloudflare";
import { Link, useParams } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Loaded, PageHeading } from "../components/console-ui";
import { RouteError } from "../components/route-error";
import { formatTimestamp } from "../lib/format";
import { errorMessage, useProject } from "../lib/project-context";

export const meta: MetaFunction = () => [{ title: "Email · Doorman" }];

type Email = SentEmail & { html: string; text: string };

export default function EmailDetailRoute() {
  const { project } = useProject();
  const { emailId = "" } = useParams();
  const [email, setEmail] = useState<Email | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    project.app
      .getSentEmail(emailId)
      .then((e) => live && (e ? setEmail(e) : setError("This email is not in the log.")))
      .catch((e: unknown) => live && setError(errorMessage(e, "Could not load the email.")));
    return () => {
      live = false;
    };
  }, [project, emailId]);
  return (
    <>
      <p>
        <Link to={`/projects/${project.id}/emails`}>← Emails</Link>
      </p>
      <Loaded value={email} error={error} what="the email">
        {(e) => (
          <>
            <PageHeading title={e.subject}>
              <p className="muted">
                To {e.to.join(", ")} · {formatTimestamp(e.sentAt)} · <span className={`status status-${e.status}`}>{e.status}</span>
              </p>
              {e.error ? <p className="alert">{e.error}</p> : null}
            </PageHeading>
            <section className="panel" aria-labelledby="email-html">
              <h2 id="email-html">As sent (HTML, redacted)</h2>
              {/* sandbox="" : no scripts, no same-origin access, no navigation from a logged message. */}
              <iframe title="The email's HTML" className="email-frame" sandbox="" srcDoc={e.html} />
            </section>
            <section className="panel" aria-labelledby="email-text">
              <h2 id="email-text">Plain text (redacted)</h2>
              <pre className="email-text">{e.text}</pre>
            </section>
          </>
        )}
      </Loaded>
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
