/** The heading of every Emails page, with the section's sub-navigation under it. */
import type { ReactNode } from "react";
import { PageHeading } from "../console-ui";
import { EmailsNav } from "./emails-nav";

export function EmailsHeading(props: { title: string; projectId: string; children?: ReactNode }) {
  return (
    <>
      <PageHeading title={props.title}>{props.children}</PageHeading>
      <EmailsNav projectId={props.projectId} />
    </>
  );
}
