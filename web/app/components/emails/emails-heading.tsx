/** The heading of every Emails page, with the section's sub-navigation under it. */
import type { ReactNode } from "react";
import { useProject } from "../../lib/project-context";
import { PageHeading } from "../console-ui";
import { EmailsNav } from "./emails-nav";
import { useDevInboxAvailable } from "./use-dev-inbox";

export function EmailsHeading(props: { title: string; projectId: string; children?: ReactNode }) {
  const devInbox = useDevInboxAvailable(useProject().project);
  return (
    <>
      <PageHeading title={props.title}>{props.children}</PageHeading>
      <EmailsNav projectId={props.projectId} devInbox={devInbox === true} />
    </>
  );
}
