/**
 * A client secret right after an app was registered or its secret rotated: shown this once (Doorman
 * keeps its SHA-256), with a Copy button and an "I have copied it" confirmation; leaving before the
 * box is ticked asks first (KeysLeaveGuard), as the Keys page does.
 */
import { CopyButton } from "@doorman/sdk/react";
import { useEffect, useRef, useState } from "react";
import { KeysCopiedCheckbox, KeysLeaveGuard } from "../keys-leave-guard";

export type ShownClientSecret = { clientId: string; name: string; secret: string; kind: "created" | "rotated" };

export function ClientSecretPanel({ clientId, name, secret, kind, onDone }: ShownClientSecret & { onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="panel panel-highlight" aria-labelledby="oauth-client-secret-heading">
      <h2 id="oauth-client-secret-heading" ref={heading} tabIndex={-1}>
        {kind === "rotated" ? `New secret of “${name}”` : `“${name}” is registered`}
      </h2>
      <p className="warning" role="note">
        <strong>Copy the client secret now.</strong> You won't see it again: Doorman stores only its hash.
        {kind === "rotated" ? " The old secret stopped working: update the app with this one." : " If you lose it, rotate it."}
      </p>
      <dl className="key-list">
        <div className="key-row">
          <dt>Client id</dt>
          <dd>
            <code className="key-value" data-testid="oauth-client-id">
              {clientId}
            </code>
            <CopyButton value={clientId} label="Client id" className="btn btn-secondary btn-small" />
          </dd>
        </div>
        <div className="key-row">
          <dt>Client secret</dt>
          <dd>
            <code className="key-value" data-testid="oauth-client-secret">
              {secret}
            </code>
            <CopyButton value={secret} label="Client secret" className="btn btn-secondary btn-small" />
          </dd>
        </div>
      </dl>
      <KeysCopiedCheckbox checked={copied} onChange={setCopied} label="I have copied the secret" />
      <KeysLeaveGuard
        active={!copied}
        title="Leave without the secret?"
        body="The client secret is shown only once: Doorman keeps its hash, not the secret. If you leave before copying it, you will need to rotate it."
      />
      <button type="button" className="btn" onClick={onDone} disabled={!copied}>
        Done
      </button>
    </section>
  );
}
