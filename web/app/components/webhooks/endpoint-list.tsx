/** The project's webhook endpoints: URL, event types, state (with a disabled endpoint's reason), and their actions (test, enable, reveal or rotate the secret, delete). */
import type { WebhookEndpoint } from "@doorman/sdk";
import { ConfirmButton } from "../console-ui";
import { DataTable } from "../data-table";

export type EndpointActions = {
  onTest: (endpoint: WebhookEndpoint) => Promise<void>;
  onToggle: (endpoint: WebhookEndpoint) => Promise<void>;
  onDelete: (endpoint: WebhookEndpoint) => Promise<void>;
  /** Shows the signing secret (logged as an event). */
  onReveal: (endpoint: WebhookEndpoint) => Promise<void>;
  /** Replaces the signing secret; the old one stops signing. */
  onRotate: (endpoint: WebhookEndpoint) => Promise<void>;
  busyId: string | null;
};

export function EndpointList({ endpoints, actions }: { endpoints: WebhookEndpoint[]; actions: EndpointActions }) {
  if (endpoints.length === 0) return <p className="empty">No endpoint yet. Add one to receive events.</p>;
  return (
    <DataTable className="webhook-endpoints" stack={["URL", "Event types", "State", ""]}>
      <thead>
        <tr>
          <th scope="col">URL</th>
          <th scope="col">Event types</th>
          <th scope="col">State</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {endpoints.map((e) => (
          <tr key={e.id}>
            <td>
              <code className="webhook-url">{e.url}</code>
              {e.description ? <div className="muted">{e.description}</div> : null}
            </td>
            <td>
              {e.eventTypes.length === 0
                ? "All types"
                : e.eventTypes.map((t) => (
                    <code key={t} className="tag">
                      {t}
                    </code>
                  ))}
            </td>
            <td>
              {e.disabled ? (
                <>
                  <span className="badge badge-muted">Disabled</span>
                  <div className="muted" data-testid="disabled-reason">
                    {e.disabledReason}
                  </div>
                </>
              ) : (
                <span className="badge">Enabled</span>
              )}
            </td>
            <td>
              <div className="row-actions">
                <button
                  type="button"
                  className="btn btn-secondary btn-small"
                  disabled={e.disabled || actions.busyId === e.id}
                  aria-label={`Send test event to ${e.url}`}
                  onClick={() => void actions.onTest(e)}
                >
                  {actions.busyId === e.id ? "Sending…" : "Send test event"}
                </button>
                <button
                  type="button"
                  className="btn btn-secondary btn-small"
                  aria-label={`${e.disabled ? "Enable" : "Disable"} ${e.url}`}
                  onClick={() => void actions.onToggle(e)}
                >
                  {e.disabled ? "Enable" : "Disable"}
                </button>
                <button
                  type="button"
                  className="btn btn-secondary btn-small"
                  aria-label={`Reveal secret of ${e.url}`}
                  onClick={() => void actions.onReveal(e)}
                >
                  Reveal secret
                </button>
                <ConfirmButton
                  small
                  label="Rotate secret"
                  ariaLabel={`Rotate secret of ${e.url}`}
                  title="Rotate the signing secret?"
                  consequence={`A new secret signs every request to ${e.url} from now on, retries included; the current one stops at once, so your server rejects deliveries until it uses the new secret.`}
                  confirmLabel="Rotate secret"
                  onConfirm={() => actions.onRotate(e)}
                />
                <ConfirmButton
                  small
                  label="Delete"
                  ariaLabel={`Delete endpoint ${e.url}`}
                  title="Delete this endpoint?"
                  consequence={`Doorman stops sending events to ${e.url}, and its delivery log is deleted.`}
                  confirmLabel="Delete endpoint"
                  onConfirm={() => actions.onDelete(e)}
                />
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}
