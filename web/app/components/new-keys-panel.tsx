/**
 * Shows a new project's id and API keys once, right after creation, with copy buttons, a clear
 * warning that the secret values cannot be shown again, and a link to connect an app with them.
 * Leaving before "I have copied these keys" is ticked asks first (KeysLeaveGuard).
 */

import { CopyButton } from "@doorman/sdk/react";
import { Link } from "@remix-run/react";
import { useState } from "react";
import type { FirstViewKeys } from "../lib/dashboard-types";
import { connectPath, connectState } from "./connect/connect-state";
import { KeysCopiedCheckbox, KeysLeaveGuard } from "./keys-leave-guard";

type Row = { id: string; label: string; value: string | undefined; hint: string };

export function NewKeysPanel({
  projectId,
  projectName,
  keys,
  onDone,
}: {
  projectId: string;
  projectName: string;
  keys: FirstViewKeys;
  onDone: () => void;
}) {
  const [copied, setCopied] = useState(false);
  const rows: Row[] = [
    { id: "project-id", label: "Project ID", value: projectId, hint: "Public. Your app passes it as projectId." },
    {
      id: "publishable-client-key",
      label: "Publishable client key",
      value: keys.publishableClientKey,
      hint: "Public. Used by browsers and apps.",
    },
    { id: "secret-server-key", label: "Secret server key", value: keys.secretServerKey, hint: "Secret. Only on your servers." },
    {
      id: "super-secret-admin-key",
      label: "Super secret admin key",
      value: keys.superSecretAdminKey,
      hint: "Secret. Full admin access to the project.",
    },
  ];
  return (
    <section className="panel panel-highlight" aria-labelledby="new-keys-heading">
      <h2 id="new-keys-heading">“{projectName}” is ready</h2>
      <p className="warning" role="note">
        <strong>Copy these keys now.</strong> You won't see the secret values again: Doorman stores only their hashes. If you lose them,
        create a new key set.
      </p>
      <dl className="key-list">
        {rows
          .filter((r) => r.value)
          .map((r) => (
            <div className="key-row" key={r.id}>
              <dt>
                {r.label}
                <span className="muted"> · {r.hint}</span>
              </dt>
              <dd>
                <code className="key-value" data-testid={r.id}>
                  {r.value}
                </code>
                <CopyButton value={r.value ?? ""} label={r.label} className="btn btn-secondary btn-small" />
              </dd>
            </div>
          ))}
      </dl>
      <p>
        Next:{" "}
        <Link to={connectPath(projectId)} state={connectState(keys)}>
          Connect an app
        </Link>{" "}
        (quickstarts for React, Next.js, Node and more, with this project id and publishable key filled in).
      </p>
      <KeysCopiedCheckbox checked={copied} onChange={setCopied} />
      <KeysLeaveGuard active={!copied} />
      <button type="button" className="btn" onClick={onDone}>
        I have saved my keys
      </button>
    </section>
  );
}
