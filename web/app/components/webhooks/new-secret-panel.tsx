/**
 * An endpoint's signing secret with a copy button: right after creation or a rotation (shown this
 * once), or revealed on request (each reveal is logged in the event log).
 */

import { CopyButton } from "@doorman/sdk/react";
import { useEffect, useRef } from "react";

export type ShownSecret = { url: string; secret: string; kind: "created" | "rotated" | "revealed" };

const NOTE: Record<ShownSecret["kind"], string> = {
  created: "Copy this secret now. You won't see it again unless you reveal it, which is logged.",
  rotated: "The old secret signs nothing more: update your server with this one now. You won't see it again unless you reveal it.",
  revealed: "Revealing the secret was recorded in the project's event log.",
};

export function NewSecretPanel({ url, secret, kind, onDone }: ShownSecret & { onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="panel panel-highlight" aria-labelledby="new-webhook-secret-heading">
      <h2 id="new-webhook-secret-heading" ref={heading} tabIndex={-1}>
        {kind === "rotated" ? "New signing secret" : "Signing secret"} of {url}
      </h2>
      <p className="warning" role="note">
        <strong>{NOTE[kind]}</strong> Your server verifies each request with it (the <code>svix</code> or <code>standardwebhooks</code> npm
        package).
      </p>
      <div className="key-row">
        <code className="key-value" data-testid="new-webhook-secret">
          {secret}
        </code>
        <CopyButton value={secret} label="Signing secret" className="btn btn-secondary btn-small" />
      </div>
      <button type="button" className="btn" onClick={onDone}>
        {kind === "revealed" ? "Hide the secret" : "I have saved the secret"}
      </button>
    </section>
  );
}
