/**
 * `/projects/:projectId/events`: the project's event log (who changed what, when, from where),
 * filtered by type or area (every type of the shared list, @doorman/shared/event-types), user and
 * time, newest first, paged with the API's cursor.
 */

import { EVENT_AREAS } from "@doorman/shared/event-types";
import type { MetaFunction } from "@remix-run/cloudflare";
import { useId, useMemo, useState } from "react";
import { PageHeading } from "../components/console-ui";
import { EventList } from "../components/events/event-list";
import { RouteError } from "../components/route-error";
import { useProject } from "../lib/project-context";

export const meta: MetaFunction = () => [{ title: "Events · Doorman" }];

/** The listed areas, lower-cased for the subtitle ("users, sign-in and sessions, …"). */
const AREA_LIST = EVENT_AREAS.map((a) => a.area.toLowerCase()).join(", ");

/** The select's value for a whole area ("area:Teams") or for one type ("team.created"). */
function parseChoice(choice: string): { type?: string; area?: string } {
  if (!choice) return {};
  return choice.startsWith("area:") ? { area: choice.slice(5) } : { type: choice };
}

export default function ProjectEventsRoute() {
  const { project } = useProject();
  const id = useId();
  const [type, setType] = useState("");
  const [userId, setUserId] = useState("");
  const [since, setSince] = useState("");
  const [until, setUntil] = useState("");
  const [applied, setApplied] = useState({ type: "", userId: "", since: "", until: "" });
  const filter = useMemo(
    () => ({
      ...parseChoice(applied.type),
      userId: applied.userId.trim() || undefined,
      since: applied.since ? new Date(`${applied.since}T00:00:00`) : undefined,
      until: applied.until ? new Date(`${applied.until}T23:59:59.999`) : undefined,
    }),
    [applied],
  );
  return (
    <>
      <PageHeading title={`Events · ${project.displayName}`}>
        <p className="muted">
          The project's event log, newest first: {AREA_LIST}. Each event says who did it and from where (device and place), never a secret
          or a setting's value.
        </p>
      </PageHeading>
      <form
        className="panel form"
        aria-label="Filter events"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied({ type, userId, since, until });
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-type`}>Type</label>
          <select id={`${id}-type`} className="input" value={type} onChange={(e) => setType(e.target.value)}>
            <option value="">All types</option>
            {EVENT_AREAS.map((a) => (
              <optgroup key={a.area} label={a.area}>
                <option value={`area:${a.area}`}>All {a.area.toLowerCase()} events</option>
                {a.types.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-user`}>User id</label>
          <input id={`${id}-user`} className="input" value={userId} onChange={(e) => setUserId(e.target.value)} autoComplete="off" />
        </div>
        <div className="inline">
          <div className="field">
            <label htmlFor={`${id}-since`}>From</label>
            <input id={`${id}-since`} className="input" type="date" value={since} onChange={(e) => setSince(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-until`}>To</label>
            <input id={`${id}-until`} className="input" type="date" value={until} onChange={(e) => setUntil(e.target.value)} />
          </div>
        </div>
        <button type="submit" className="btn">
          Show events
        </button>
      </form>
      <section className="panel" aria-label="Event log">
        <EventList project={project} filter={filter} label="Events" />
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
