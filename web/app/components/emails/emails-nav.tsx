/**
 * The Emails section's sub-navigation: the sent log and server, the outbox, templates, themes, drafts,
 * compose, and in development the dev inbox (the real messages of the dev outbox).
 */
import { NavLink } from "@remix-run/react";

const SECTIONS = [
  { path: "", label: "Sent & server" },
  { path: "/outbox", label: "Outbox" },
  { path: "/templates", label: "Templates" },
  { path: "/themes", label: "Themes" },
  { path: "/drafts", label: "Drafts" },
  { path: "/compose", label: "Compose" },
] as const;

export function EmailsNav({ projectId, devInbox = false }: { projectId: string; devInbox?: boolean }) {
  const sections = devInbox ? [...SECTIONS, { path: "/inbox", label: "Dev inbox" } as const] : SECTIONS;
  return (
    <nav aria-label="Emails" className="subnav">
      <ul>
        {sections.map((s) => (
          <li key={s.path}>
            <NavLink to={`/projects/${projectId}/emails${s.path}`} end={s.path === ""} prefetch="none">
              {s.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
