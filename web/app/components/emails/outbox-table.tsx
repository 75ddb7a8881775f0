/**
 * The outbox as a table, newest first: recipient, subject (a button that opens the details),
 * status, created time and retries; "Load more" continues on the API's cursor.
 */
import type { AdminEmailOutbox } from "@doorman/sdk";
import { formatTimestamp } from "../../lib/format";
import { DataTable } from "../data-table";
import { OutboxStatus, Recipient } from "./outbox-status";

export function OutboxTable(props: {
  projectId: string;
  items: AdminEmailOutbox[];
  openId: string | null;
  detailsId: string;
  onOpen: (email: AdminEmailOutbox) => void;
  nextCursor: string | null;
  loading: boolean;
  onLoadMore: () => void;
}) {
  if (props.items.length === 0) return <p className="empty">No emails match.</p>;
  return (
    <>
      <DataTable className="email-table outbox-table" label="Outbox">
        <thead>
          <tr>
            <th scope="col">To</th>
            <th scope="col">Subject</th>
            <th scope="col">Status</th>
            <th scope="col">Created</th>
            <th scope="col">Retries</th>
          </tr>
        </thead>
        <tbody>
          {props.items.map((e) => (
            <tr key={e.id} className={props.openId === e.id ? "outbox-open" : undefined}>
              <td>
                <Recipient to={e.to} projectId={props.projectId} />
              </td>
              <td>
                <button
                  type="button"
                  className="link-button"
                  data-outbox-id={e.id}
                  aria-expanded={props.openId === e.id}
                  aria-controls={props.openId === e.id ? props.detailsId : undefined}
                  aria-label={`${e.subject ?? "Not rendered yet"}: details`}
                  onClick={() => props.onOpen(e)}
                >
                  {e.subject ?? "Not rendered yet"}
                </button>
              </td>
              <td>
                <OutboxStatus status={e.status} />
              </td>
              <td>{formatTimestamp(e.createdAt)}</td>
              <td>
                {e.sendRetries}
                {e.nextSendRetryAt ? <div className="muted">next {formatTimestamp(e.nextSendRetryAt)}</div> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </DataTable>
      {props.nextCursor ? (
        <button type="button" className="btn btn-secondary" onClick={props.onLoadMore} disabled={props.loading}>
          {props.loading ? "Loading…" : "Load more"}
        </button>
      ) : null}
    </>
  );
}
