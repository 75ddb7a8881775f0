/** A new endpoint's signing secret, shown once right after creation with a copy button. */

import { CopyButton } from "@doorman/sdk/react";
import { useEffect, useRef } from "react";

export function NewSecretPanel({ url, secret, onDone }: { url: string; secret: string; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="panel panel-highlight" aria-labelledby="new-webhook-secret-heading">
      <h2 id="new-webhook-secret-heading" ref={heading} tabIndex={-1}>
        Signing secret of {url}
      </h2>
      <p className="warning" role="note">
        <strong>Copy this secret now.</strong> You won't see it again. Your server verifies each request with it (the <code>svix</code> or{" "}
        <code>standardwebhooks</code> npm package).
      </p>
      <div className="key-row">
        <code className="key-value" data-testid="new-webhook-secret">
          {secret}
        </code>
        <CopyButton value={secret} label="Signing secret" className="btn btn-secondary btn-small" />
      </div>
      <button type="button" className="btn" onClick={onDone}>
        I have saved the secret
      </button>
    </section>
  );
}
