/**
 * A page of the event log as a table (newest first) with "Load more" on the cursor. Used by the
 * Events page (with filters) and by a user's detail page (that user's events).
 */

import type { ProjectEvent } from "@doorman/sdk";
import { Link } from "@remix-run/react";
import { useCallback, useEffect, useState } from "react";
import type { OwnedProject } from "../../lib/dashboard-types";
import { formatTimestamp } from "../../lib/format";
import { errorMessage } from "../../lib/project-context";
import { DataTable } from "../data-table";
import { eventDetail, eventOrigin } from "./event-facts";

export type EventFilter = { type?: string; area?: string; userId?: string; since?: Date; until?: Date };

const COLUMNS = ["When", "Event", "Subject", "By", "From"];

function actorLabel(e: ProjectEvent): string {
  if (e.actor.type === "admin") return "an owner (console or admin key)";
  if (e.actor.type === "server") return "your server (secret key)";
  if (e.actor.type === "user") return e.actor.id === e.userId ? "the user" : `user ${e.actor.id ?? ""}`;
  return "Doorman";
}

export function EventList(props: { project: OwnedProject; filter: EventFilter; pageSize?: number; label: string }) {
  const { project, filter } = props;
  const [items, setItems] = useState<ProjectEvent[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const limit = props.pageSize ?? 25;

  const load = useCallback(
    async (after: string | null) => {
      setBusy(true);
      try {
        const page = await project.app.listEvents({ ...filter, cursor: after ?? undefined, limit });
        setItems((list) => (after && list ? [...list, ...page.items] : page.items));
        setCursor(page.nextCursor);
        setError(null);
      } catch (e) {
        setError(errorMessage(e, "Could not load the events."));
      } finally {
        setBusy(false);
      }
    },
    [project, filter, limit],
  );
  useEffect(() => {
    setItems(null);
    load(null);
  }, [load]);

  if (error)
    return (
      <p className="alert" role="alert">
        {error}
      </p>
    );
  if (items === null)
    return (
      <p className="muted" role="status">
        Loading the events…
      </p>
    );
  if (items.length === 0) return <p className="empty">No events match.</p>;
  return (
    <>
      <DataTable className="email-table" label={props.label} stack={COLUMNS}>
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {items.map((e) => {
            const detail = eventDetail(e);
            const origin = eventOrigin(e);
            return (
              <tr key={e.id}>
                <td>{formatTimestamp(e.createdAt)}</td>
                <td>
                  <code>{e.type}</code>
                  {detail ? <div className="muted event-detail">{detail}</div> : null}
                </td>
                <td>
                  {e.userId ? <Link to={`/projects/${project.id}/users/${e.userId}`}>user {e.userId.slice(0, 8)}</Link> : null}
                  {e.userId && e.teamId ? " · " : null}
                  {e.teamId ? <Link to={`/projects/${project.id}/teams/${e.teamId}`}>team {e.teamId.slice(0, 8)}</Link> : null}
                </td>
                <td>{actorLabel(e)}</td>
                <td>
                  {[origin.place, e.ip].filter(Boolean).join(" · ") || <span className="muted">—</span>}
                  {origin.device ? (
                    <div className="muted event-agent" title={e.userAgent ?? undefined}>
                      {origin.device}
                    </div>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </DataTable>
      {cursor ? (
        <button type="button" className="btn btn-secondary" onClick={() => load(cursor)} disabled={busy}>
          {busy ? "Loading…" : "Load more"}
        </button>
      ) : null}
    </>
  );
}
