/**
 * The delivery log: newest first, optionally one endpoint's; each delivery opens to its payload and
 * every attempt (status, latency, response excerpt or error), with "Resend".
 */

import type { WebhookDelivery, WebhookEndpoint } from "@doorman/sdk";
import { useCallback, useEffect, useId, useState } from "react";
import type { OwnedProject } from "../../lib/dashboard-types";
import { formatTimestamp } from "../../lib/format";
import { Loaded } from "../console-ui";
import { DataTable } from "../data-table";

function Attempts({ delivery }: { delivery: WebhookDelivery }) {
  if (delivery.attempts.length === 0) return <p className="muted">No attempt yet.</p>;
  return (
    <DataTable
      className="webhook-attempts"
      stack={["When", "Status", "Latency", "Response"]}
      caption="Attempts"
      captionClassName="visually-hidden"
    >
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Status</th>
          <th scope="col">Latency</th>
          <th scope="col">Response</th>
        </tr>
      </thead>
      <tbody>
        {delivery.attempts.map((a) => (
          <tr key={a.id}>
            <td>{formatTimestamp(a.attemptedAt)}</td>
            <td>{a.statusCode ?? "—"}</td>
            <td>{a.latencyMs} ms</td>
            <td>
              <code className="webhook-excerpt">{a.error ?? a.responseExcerpt ?? ""}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}

export function DeliveryLog(props: {
  project: OwnedProject;
  endpoints: WebhookEndpoint[];
  /** Changes when something new may be in the log (a test event, a resend). */
  version: number;
  onResend: (delivery: WebhookDelivery) => Promise<void>;
}) {
  const id = useId();
  const [endpointId, setEndpointId] = useState("");
  const [items, setItems] = useState<WebhookDelivery[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const app = props.project.app;
  const urlOf = (eid: string) => props.endpoints.find((e) => e.id === eid)?.url ?? eid;

  const load = useCallback(
    async (after?: string) => {
      setLoading(true);
      setError(null);
      try {
        const page = await app.listWebhookDeliveries({ endpointId: endpointId || undefined, cursor: after, limit: 20 });
        setItems((list) => (after && list ? [...list, ...page.items] : page.items));
        setCursor(page.nextCursor);
      } catch (e) {
        setError(e instanceof Error ? e.message : "Could not load the delivery log.");
      } finally {
        setLoading(false);
      }
    },
    [app, endpointId],
  );
  useEffect(() => {
    void load();
  }, [load, props.version]);

  return (
    <section className="panel" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Delivery log</h2>
      <div className="inline">
        <div className="field">
          <label htmlFor={`${id}-endpoint`}>Endpoint</label>
          <select id={`${id}-endpoint`} className="input" value={endpointId} onChange={(e) => setEndpointId(e.target.value)}>
            <option value="">All endpoints</option>
            {props.endpoints.map((e) => (
              <option key={e.id} value={e.id}>
                {e.url}
              </option>
            ))}
          </select>
        </div>
        <button type="button" className="btn btn-secondary" onClick={() => void load()} disabled={loading}>
          {loading ? "Refreshing…" : "Refresh"}
        </button>
      </div>
      <Loaded value={items} error={error} what="the delivery log">
        {(list) =>
          list.length === 0 ? (
            <p className="empty">No delivery yet. Send a test event to see one here.</p>
          ) : (
            <ul className="webhook-deliveries">
              {list.map((d) => (
                <li key={d.id} className="webhook-delivery">
                  <details>
                    <summary>
                      <code>{d.type}</code> · <span className={`status status-${d.status}`}>{d.status}</span> · {d.attemptCount}{" "}
                      {d.attemptCount === 1 ? "attempt" : "attempts"} · {formatTimestamp(d.createdAt)} ·{" "}
                      <span className="muted">{urlOf(d.endpointId)}</span>
                    </summary>
                    {d.nextAttemptAt ? <p className="muted">Next attempt: {formatTimestamp(d.nextAttemptAt)}</p> : null}
                    <h3>Attempts</h3>
                    <Attempts delivery={d} />
                    <h3>Payload</h3>
                    <pre className="webhook-payload" data-testid="webhook-payload">
                      {JSON.stringify(d.payload, null, 2)}
                    </pre>
                    <p className="muted">
                      <code>webhook-id</code>: <code>{d.messageId}</code>
                    </p>
                    <button type="button" className="btn btn-secondary btn-small" onClick={() => void props.onResend(d)}>
                      Resend
                    </button>
                  </details>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      {cursor ? (
        <button type="button" className="btn btn-secondary" disabled={loading} onClick={() => void load(cursor)}>
          {loading ? "Loading…" : "Load more"}
        </button>
      ) : null}
    </section>
  );
}
