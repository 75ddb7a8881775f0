/**
 * A new key set's keys, shown once right after creation, each with a copy button, the warning
 * that the secret values cannot be shown again, and a link to the Connect page with the publishable
 * key filled in. Leaving before "I have copied these keys" is ticked asks first (KeysLeaveGuard).
 */

import { CopyButton } from "@doorman/sdk/react";
import { Link } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type { FirstViewKeys } from "../../lib/dashboard-types";
import { connectPath, connectState } from "../connect/connect-state";
import { KeysCopiedCheckbox, KeysLeaveGuard } from "../keys-leave-guard";

export function NewKeySetPanel({ projectId, keys, onDone }: { projectId: string; keys: FirstViewKeys; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => heading.current?.focus(), []);
  const rows = [
    { id: "project-id", label: "Project ID", value: projectId },
    { id: "publishable-client-key", label: "Publishable client key", value: keys.publishableClientKey },
    { id: "secret-server-key", label: "Secret server key", value: keys.secretServerKey },
    { id: "super-secret-admin-key", label: "Super secret admin key", value: keys.superSecretAdminKey },
  ].filter((r): r is { id: string; label: string; value: string } => Boolean(r.value));
  return (
    <section className="panel panel-highlight" aria-labelledby="new-key-set-heading">
      <h2 id="new-key-set-heading" ref={heading} tabIndex={-1}>
        Keys of “{keys.description}”
      </h2>
      <p className="warning" role="note">
        <strong>Copy these keys now.</strong> You won't see the secret values again: Doorman stores only their hashes.
      </p>
      <dl className="key-list">
        {rows.map((r) => (
          <div className="key-row" key={r.id}>
            <dt>{r.label}</dt>
            <dd>
              <code className="key-value" data-testid={`new-${r.id}`}>
                {r.value}
              </code>
              <CopyButton value={r.value} label={r.label} className="btn btn-secondary btn-small" />
            </dd>
          </div>
        ))}
      </dl>
      {keys.publishableClientKey ? (
        <p>
          <Link to={connectPath(projectId)} state={connectState(keys)}>
            Connect an app with these keys
          </Link>{" "}
          (quickstarts with the publishable key filled in).
        </p>
      ) : null}
      <KeysCopiedCheckbox checked={copied} onChange={setCopied} />
      <KeysLeaveGuard active={!copied} />
      <button type="button" className="btn" onClick={onDone}>
        I have saved these keys
      </button>
    </section>
  );
}
