/**
 * Team SSO → SCIM provisioning of a connection: the base URL to give the IdP, the token (made or
 * rotated here and shown once, with an "I have copied the token" guard before leaving, as the Keys
 * page does; Doorman keeps its hash), and the connection's last SCIM calls.
 */
import type { SsoConnection, SsoEvent, TeamSsoManagement } from "@doorman/sdk";
import { CopyButton } from "@doorman/sdk/react";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { formatDateTime } from "../../lib/format";
import { useLoad } from "../../lib/use-load";
import { Alert, ConfirmButton, Loaded, useAction } from "../console-ui";
import { DataTable } from "../data-table";
import { KeysCopiedCheckbox, KeysLeaveGuard } from "../keys-leave-guard";
import { CopyValues } from "./copy-values";
import { describeScimCall } from "./sso-console-model";

type Props = { sso: TeamSsoManagement; connection: SsoConnection; onChanged: (message: string) => Promise<void> };

export function ScimPanel({ sso, connection, onChanged }: Props) {
  const id = useId();
  const [shown, setShown] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const calls = useLoad(
    useCallback(() => sso.listScimCalls(connection.id, { limit: 20 }), [sso, connection.id]),
    "the SCIM calls",
  );
  const rotate = async () => {
    const { token } = await sso.rotateScimToken(connection.id);
    setShown(token);
    await onChanged(connection.scim.tokenPrefix ? "SCIM token rotated: the old one stopped working." : "SCIM token created.");
  };
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>SCIM provisioning · {connection.displayName}</h2>
      <p className="muted">
        The IdP creates, updates and deactivates the team's users and groups here (SCIM 2.0). A deactivated user leaves the team and is
        signed out everywhere at once.
      </p>
      <CopyValues rows={[{ id: "sso-scim-base-url", label: "SCIM base URL", value: connection.scim.baseUrl }]} />
      <p data-testid="sso-scim-token-prefix">
        Token:{" "}
        {connection.scim.tokenPrefix ? (
          <>
            <code>{connection.scim.tokenPrefix}…</code> <span className="muted">(only its start is kept in the clear)</span>
          </>
        ) : (
          <span className="muted">none yet: SCIM refuses every call.</span>
        )}
      </p>
      {shown ? <ScimTokenShown token={shown} onDone={() => setShown(null)} /> : null}
      <Alert message={error} />
      {connection.scim.tokenPrefix ? (
        <ConfirmButton
          label="Rotate SCIM token"
          title="Rotate the SCIM token?"
          consequence="A new token replaces the current one at once: the IdP's provisioning fails until it uses the new token."
          confirmLabel="Rotate token"
          onConfirm={rotate}
          disabled={shown !== null}
        />
      ) : (
        <button
          type="button"
          className="btn"
          disabled={busy || shown !== null}
          onClick={() => void run(rotate, "Could not create the token.")}
        >
          Create SCIM token
        </button>
      )}
      <h3>Last SCIM calls</h3>
      <Loaded value={calls.value} error={calls.error} what="the SCIM calls">
        {(list) => <ScimCalls calls={list} />}
      </Loaded>
    </section>
  );
}

function ScimTokenShown({ token, onDone }: { token: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="panel panel-highlight" aria-labelledby="sso-scim-token-heading">
      <h3 id="sso-scim-token-heading" ref={heading} tabIndex={-1}>
        The new SCIM token
      </h3>
      <p className="warning" role="note">
        <strong>Copy the token now.</strong> You won't see it again: Doorman stores only its hash. Give it to the IdP as its bearer token.
      </p>
      <dl className="key-list">
        <div className="key-row">
          <dt>SCIM token</dt>
          <dd>
            <code className="key-value" data-testid="sso-scim-token">
              {token}
            </code>
            <CopyButton value={token} label="SCIM token" className="btn btn-secondary btn-small" />
          </dd>
        </div>
      </dl>
      <KeysCopiedCheckbox checked={copied} onChange={setCopied} label="I have copied the token" />
      <KeysLeaveGuard
        active={!copied}
        title="Leave without the SCIM token?"
        body="The token is shown only once: Doorman keeps its hash, not the token. If you leave before copying it, you will need to rotate it."
      />
      <button type="button" className="btn" onClick={onDone} disabled={!copied}>
        Done
      </button>
    </section>
  );
}

function ScimCalls({ calls }: { calls: SsoEvent[] }) {
  return (
    <DataTable
      caption="Last SCIM calls"
      captionClassName="visually-hidden"
      isEmpty={calls.length === 0}
      empty="No SCIM call yet."
      stack={["When", "What", "From"]}
    >
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">What</th>
          <th scope="col">From</th>
        </tr>
      </thead>
      <tbody>
        {calls.map((c) => (
          <tr key={c.id}>
            <td>{formatDateTime(c.createdAt)}</td>
            <td>{describeScimCall(c)}</td>
            <td>{c.ip ?? "—"}</td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}
