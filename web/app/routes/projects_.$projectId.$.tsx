/** An unknown page under a project: a 404 status and a styled page inside the console, with a way back. */
import type { MetaFunction } from "@remix-run/cloudflare";
import { useParams } from "@remix-run/react";
import { PageHeading } from "../components/console-ui";

export const meta: MetaFunction = () => [{ title: "Page not found · Doorman" }];

export function loader(): never {
  throw new Response("Not found", { status: 404 });
}

export default function ProjectNotFound() {
  return <NotFound />;
}

export function ErrorBoundary() {
  return <NotFound />;
}

function NotFound() {
  const { projectId } = useParams();
  return (
    <section className="panel">
      <PageHeading title="Page not found">
        <p>There is no such page in this project&apos;s console.</p>
      </PageHeading>
      <a className="btn btn-secondary" href={`/projects/${projectId}`}>
        Go to the overview
      </a>
    </section>
  );
}
