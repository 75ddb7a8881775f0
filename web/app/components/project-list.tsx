/**
 * The owner's projects (id, name, creation date), or a friendly empty state.
 */
import type { OwnedProject } from "../lib/dashboard-types";
import { formatShortDay } from "../lib/format";

export function ProjectList({ projects }: { projects: OwnedProject[] | null }) {
  if (projects === null) {
    return (
      <p className="muted" role="status">
        Loading projects…
      </p>
    );
  }
  if (projects.length === 0) {
    return <p className="empty">No projects yet. Create your first one above.</p>;
  }
  return (
    <ul className="project-list" aria-label="Your projects">
      {projects.map((p) => (
        <li key={p.id} className="project-item">
          <a className="project-name" href={`/projects/${p.id}`}>
            {p.displayName}
          </a>
          <code className="muted project-id">{p.id}</code>
          {p.createdAt ? <span className="muted">Created {formatShortDay(p.createdAt)}</span> : null}
          <a href={`/projects/${p.id}/emails`}>Emails</a>
          <a href={`/projects/${p.id}/permissions`}>Permissions</a>
        </li>
      ))}
    </ul>
  );
}
