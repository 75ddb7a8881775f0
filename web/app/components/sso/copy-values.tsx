/**
 * Team SSO → values to copy into the customer's IdP (or from Doorman to a person): a list of labelled
 * values, each with a Copy button, as the OAuth apps page shows its endpoints.
 */
import { CopyButton } from "@doorman/sdk/react";

export type CopyValue = { id: string; label: string; value: string; hint?: string };

export function CopyValues({ rows }: { rows: CopyValue[] }) {
  return (
    <dl className="key-list">
      {rows.map((r) => (
        <div className="key-row" key={r.id}>
          <dt>
            {r.label}
            {r.hint ? <span className="muted"> · {r.hint}</span> : null}
          </dt>
          <dd>
            <code className="key-value" data-testid={r.id}>
              {r.value}
            </code>
            <CopyButton value={r.value} label={r.label} className="btn btn-secondary btn-small" />
          </dd>
        </div>
      ))}
    </dl>
  );
}
