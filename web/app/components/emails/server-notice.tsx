/** Sending the owner's own emails needs the project's own SMTP server (as the reference): say so before they try. */
import { Link } from "@remix-run/react";
import type { OwnedProject } from "../../lib/dashboard-types";

export function ServerNotice({ project }: { project: OwnedProject }) {
  if (project.config.emailConfig.type !== "shared") return null;
  return (
    <p className="warning">
      Sending your own emails needs your own SMTP server; the shared server only sends Doorman&apos;s built-in emails.{" "}
      <Link to={`/projects/${project.id}/emails`}>Set up the email server</Link>.
    </p>
  );
}
