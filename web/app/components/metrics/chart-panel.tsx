/**
 * A metrics chart's panel: the heading that names the region, then a loading line, an error, an
 * empty-state line, or the chart with a visually hidden table as its text alternative.
 */
import type { ReactNode } from "react";

export type ChartState<T> = { status: "loading" } | { status: "error"; message: string } | { status: "ready"; data: T };

export function ChartPanel<T>(props: {
  id: string;
  title: string;
  state: ChartState<T>;
  isEmpty: (data: T) => boolean;
  emptyText: string;
  /** One visible line under the heading (totals, peak). */
  summary?: (data: T) => string;
  chart: (data: T) => ReactNode;
  /** The same figures as a table, for screen readers (and as the chart's text alternative). */
  table: (data: T) => ReactNode;
}) {
  const titleId = `${props.id}-title`;
  const s = props.state;
  return (
    <section className="panel metric-panel" aria-labelledby={titleId} data-chart={props.id} aria-busy={s.status === "loading"}>
      <h2 id={titleId}>{props.title}</h2>
      {s.status === "loading" ? (
        <p className="muted metric-placeholder" role="status">
          Loading {props.title.toLowerCase()}…
        </p>
      ) : s.status === "error" ? (
        <p className="alert" role="alert">
          {s.message}
        </p>
      ) : props.isEmpty(s.data) ? (
        <p className="muted metric-placeholder metric-empty">{props.emptyText}</p>
      ) : (
        <>
          {props.summary ? <p className="muted">{props.summary(s.data)}</p> : null}
          {/* The drawing is decoration for sighted users; the table below carries the same figures. */}
          <div className="metric-chart" aria-hidden="true">
            {props.chart(s.data)}
          </div>
          <div className="visually-hidden">{props.table(s.data)}</div>
        </>
      )}
    </section>
  );
}
