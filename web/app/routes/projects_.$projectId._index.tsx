/**
 * `/projects/:projectId`: the overview: the setup checklist and links to every page.
 * (Counts and charts are filled in below as their admin routes land.)
 */
import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { PageHeading } from "../components/console-ui";
import { RouteError } from "../components/route-error";
import { useProject } from "../lib/project-context";
import { PROJECT_PAGES } from "../lib/project-pages";

export const meta: MetaFunction = () => [{ title: "Overview · Doorman" }];

export default function ProjectOverview() {
  const { project } = useProject();
  const c = project.config;
  const methods = [c.credentialEnabled && "password", c.magicLinkEnabled && "magic link/OTP", c.passkeyEnabled && "passkeys"]
    .concat(c.oauthProviders.map((p) => p.id))
    .filter(Boolean) as string[];
  const checklist = [
    {
      done: c.domains.length > 0,
      label: "Add a trusted domain",
      detail: c.domains.length
        ? c.domains.map((d) => d.domain).join(", ")
        : "Redirects to your app are refused until its domain is trusted.",
      to: "domains",
    },
    {
      done: methods.length > 0,
      label: "Choose sign-in methods",
      detail: methods.length ? methods.join(", ") : "No sign-in method is on.",
      to: "sign-in-methods",
    },
    {
      done: c.emailConfig.type === "standard",
      label: "Set up your email server",
      detail:
        c.emailConfig.type === "standard"
          ? `${c.emailConfig.host}:${c.emailConfig.port}`
          : "Shared server: fine for development, not for production.",
      to: "emails",
    },
    {
      done: project.isProductionMode,
      label: "Turn on production mode",
      detail: project.isProductionMode ? "On." : "Development mode allows localhost and skips production checks.",
      to: "settings",
    },
  ];
  return (
    <>
      <PageHeading title={`Overview · ${project.displayName}`}>
        <p className="muted">
          Project id <code>{project.id}</code>
        </p>
      </PageHeading>
      <section className="panel" aria-labelledby="checklist-title">
        <h2 id="checklist-title">Setup checklist</h2>
        <ul className="checklist">
          {checklist.map((item) => (
            <li key={item.label}>
              <span className={item.done ? "check-done" : "check-todo"} aria-hidden="true">
                {item.done ? "✓" : "○"}
              </span>
              <span>
                <Link to={`/projects/${project.id}/${item.to}`}>{item.label}</Link>
                <span className="visually-hidden">{item.done ? " (done)" : " (to do)"}</span>
                <br />
                <span className="muted">{item.detail}</span>
              </span>
            </li>
          ))}
        </ul>
      </section>
      <section className="panel" aria-labelledby="pages-title">
        <h2 id="pages-title">Pages</h2>
        <ul className="inline-links">
          {PROJECT_PAGES.filter((p) => p.path).map((p) => (
            <li key={p.path}>
              <Link to={`/projects/${project.id}/${p.path}`}>{p.label}</Link>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
