/**
 * The console's frame as plain markup: the header (brand, main navigation, the owner's slot) and a
 * project's navigation. Nothing here needs the SDK, so the server renders it (issue 28): the
 * navigation is in the HTML before hydration and works with JavaScript off. DashboardShell and the
 * project layout fill it in once the owner's session is known; `ConsoleLoading` shows it meanwhile.
 */
import { StackLoading } from "@doorman/sdk/react";
import { INTERNAL_PROJECT_ID } from "@doorman/shared/constants";
import { hostedHandlerPath } from "@doorman/shared/hosted-pages";
import { NavLink, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { PROJECT_PAGES } from "../lib/project-pages";

/** The internal project's hosted pages (the console's own account settings and sign-out). */
const HANDLER = hostedHandlerPath(INTERNAL_PROJECT_ID);
export const CONSOLE_URLS = { accountSettings: `${HANDLER}/account-settings`, signOut: `${HANDLER}/sign-out` } as const;

/** The header and the main area; `user` is the owner's name and sign-out, once known. */
export function ShellFrame({ user, accountHref, children }: { user?: ReactNode; accountHref?: string; children: ReactNode }) {
  return (
    <div className="shell">
      <header className="shell-header">
        <a className="brand" href="/projects">
          <span className="brand-mark" aria-hidden="true">
            D
          </span>
          Doorman
        </a>
        <nav aria-label="Main" className="shell-nav">
          <a href="/projects">Projects</a>
          <a href={accountHref ?? CONSOLE_URLS.accountSettings}>Account</a>
        </nav>
        <div className="shell-user">{user}</div>
      </header>
      <main className="shell-main">{children}</main>
    </div>
  );
}

/** A project's pages, the current one marked with aria-current (NavLink: real links, client-side navigation once hydrated). */
export function ProjectNavLinks({ projectId }: { projectId: string }) {
  return (
    <ul>
      {PROJECT_PAGES.map((page) => (
        <li key={page.path}>
          <NavLink to={`/projects/${projectId}${page.path ? `/${page.path}` : ""}`} end={page.path === ""} prefetch="none">
            {page.label}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

/** The project frame: its navigation (title, extra controls, the pages) beside the page. */
export function ProjectFrame(props: { projectId: string; title: ReactNode; controls?: ReactNode; children: ReactNode }) {
  return (
    <div className="project-frame">
      <nav className="project-nav" aria-label="Project">
        <p className="project-nav-title">
          <a href="/projects">← Projects</a>
          {props.title}
        </p>
        {props.controls}
        <ProjectNavLinks projectId={props.projectId} />
      </nav>
      <div className="project-page">{props.children}</div>
    </div>
  );
}

/**
 * What a page shows before the owner's session is known (on the server, and until the browser's
 * app exists): on console pages the frame with its navigation around "Loading…", elsewhere "Loading…".
 */
export function ConsoleLoading() {
  const { pathname } = useLocation();
  const project = pathname.match(/^\/projects\/([^/]+)/)?.[1];
  if (project)
    return (
      <ShellFrame>
        <ProjectFrame projectId={decodeURIComponent(project)} title={<strong>Project</strong>}>
          <StackLoading />
        </ProjectFrame>
      </ShellFrame>
    );
  if (pathname === "/projects" || pathname === "/projects/")
    return (
      <ShellFrame>
        <StackLoading />
      </ShellFrame>
    );
  return <StackLoading />;
}
