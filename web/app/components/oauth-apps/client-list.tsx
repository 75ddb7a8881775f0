/**
 * OAuth apps → the project's apps: name (and logo), client id, type and authentication, where it came
 * from (registered here, registered itself, or a metadata document), its redirect URIs, and its
 * actions: edit, rotate the secret, delete (behind confirmations that say what stops working).
 */
import type { OAuthClient } from "@doorman/sdk";
import { formatShortDay } from "../../lib/format";
import { ConfirmButton } from "../console-ui";
import { DataTable, IdText } from "../data-table";

const SOURCE_LABELS: Record<OAuthClient["source"], string> = {
  console: "Registered here",
  dynamic: "Registered itself",
  metadata_document: "Metadata document",
};

export type ClientActions = {
  onEdit: (client: OAuthClient) => void;
  onRotate: (client: OAuthClient) => Promise<void>;
  onDelete: (client: OAuthClient) => Promise<void>;
};

const hasSecret = (c: OAuthClient) => c.secretPrefix !== null;

export function ClientList({ clients, actions }: { clients: OAuthClient[]; actions: ClientActions }) {
  return (
    <DataTable
      className="oauth-clients"
      caption="Apps"
      captionClassName="visually-hidden"
      isEmpty={clients.length === 0}
      empty="No app yet. Register one below, or turn on open registration or client ID metadata documents."
      stack={["App", "Client id", "Type", "Redirect URIs", "Created", ""]}
    >
      <thead>
        <tr>
          <th scope="col">App</th>
          <th scope="col">Client id</th>
          <th scope="col">Type</th>
          <th scope="col">Redirect URIs</th>
          <th scope="col">Created</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {clients.map((c) => (
          <tr key={c.clientId} data-testid="oauth-client-row">
            <td>
              <div className="oauth-client-name">
                {/* The logo is the app's own (https or data:image), shown as the consent page shows it. */}
                {c.logoUri ? <img src={c.logoUri} alt="" width={24} height={24} loading="lazy" referrerPolicy="no-referrer" /> : null}
                <strong>{c.name}</strong>
              </div>
              <span className="badge badge-muted">{SOURCE_LABELS[c.source]}</span>
            </td>
            <td>
              <IdText id={c.clientId} />
              {hasSecret(c) ? <div className="muted">Secret {c.secretPrefix}…</div> : null}
            </td>
            <td>
              {c.clientType === "public" ? "Public" : "Confidential"}
              <div className="muted">
                <code>{c.tokenEndpointAuthMethod}</code>
              </div>
            </td>
            <td>
              <ul className="oauth-redirect-uris">
                {c.redirectUris.map((u) => (
                  <li key={u}>
                    <code>{u}</code>
                  </li>
                ))}
              </ul>
            </td>
            <td>{formatShortDay(c.createdAt)}</td>
            <td data-label="">
              <div className="row-actions">
                {c.source === "metadata_document" ? null : (
                  <button
                    type="button"
                    className="btn btn-secondary btn-small"
                    aria-label={`Edit ${c.name}`}
                    onClick={() => actions.onEdit(c)}
                  >
                    Edit
                  </button>
                )}
                {hasSecret(c) ? (
                  <ConfirmButton
                    small
                    label="Rotate secret"
                    ariaLabel={`Rotate secret of ${c.name}`}
                    title={`Rotate the secret of “${c.name}”?`}
                    consequence="A new secret replaces the current one at once: the app's token requests fail until it uses the new secret. Tokens it already holds keep working."
                    confirmLabel="Rotate secret"
                    onConfirm={() => actions.onRotate(c)}
                  />
                ) : null}
                <ConfirmButton
                  small
                  label="Delete"
                  ariaLabel={`Delete ${c.name}`}
                  title={`Delete “${c.name}”?`}
                  consequence={
                    c.source === "metadata_document"
                      ? "Doorman forgets the cached document, and every user's consent and grant for this app: its refresh tokens stop working at once, its access tokens at their expiry. Using its URL again fetches the document again."
                      : "The app can no longer sign anyone in. Every user's consent and grant for it are deleted: its refresh tokens stop working at once, its access tokens at their expiry. This cannot be undone."
                  }
                  confirmLabel="Delete app"
                  onConfirm={() => actions.onDelete(c)}
                />
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}
