/**
 * Team SSO → the team's connection(s): add one (SAML or OIDC; a draft until the IdP's values are
 * in), and for the chosen one the values the IdP needs (SAML: entity ID, ACS URL, metadata URL and
 * the metadata file; OIDC: the redirect URI), a "Test sign-in" link (the project's hosted sign-in
 * page starting this connection), the IdP's values, the settings, and delete.
 */
import type { SsoConnection, TeamSsoManagement } from "@doorman/sdk";
import { type FormEvent, useId, useState } from "react";
import { useProject } from "../../lib/project-context";
import { Alert, ConfirmButton, TextField, useAction } from "../console-ui";
import { AdvancedSettingsForm } from "./advanced-settings-form";
import { type CopyValue, CopyValues } from "./copy-values";
import { IdpSettingsForm } from "./idp-settings-form";
import { testSignInUrl } from "./sso-console-model";

type Props = { sso: TeamSsoManagement; connections: SsoConnection[]; onChanged: (message: string) => Promise<void> };

export function ConnectionPanel({ sso, connections, onChanged }: Props) {
  const id = useId();
  const [chosen, setChosen] = useState<string | null>(null);
  const selected = connections.find((c) => c.id === chosen) ?? connections[0] ?? null;
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Identity provider</h2>
      {connections.length > 1 ? (
        <div className="field">
          <label htmlFor={`${id}-which`}>Connection</label>
          <select id={`${id}-which`} className="input" value={selected?.id} onChange={(e) => setChosen(e.target.value)}>
            {connections.map((c) => (
              <option key={c.id} value={c.id}>
                {c.displayName} ({c.protocol === "saml" ? "SAML" : "OIDC"})
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {selected ? (
        <ConnectionDetails key={`${selected.id}:${selected.updatedAt.getTime()}`} sso={sso} connection={selected} onChanged={onChanged} />
      ) : (
        <p className="muted">No connection yet: add the team's identity provider below, or send its IT admin a setup link.</p>
      )}
      <NewConnectionForm sso={sso} onChanged={onChanged} />
    </section>
  );
}

function NewConnectionForm({ sso, onChanged }: Omit<Props, "connections">) {
  const id = useId();
  const [protocol, setProtocol] = useState<"saml" | "oidc">("saml");
  const [name, setName] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!name.trim()) return setProblem("Enter a name, such as “Okta” or “Entra ID”.");
    setProblem(null);
    await run(async () => {
      const created = await sso.createConnection({ protocol, displayName: name.trim() });
      setName("");
      await onChanged(`“${created.displayName}” added as a draft: give the IdP its values, then enter the IdP's.`);
    }, "Could not add the connection.");
  };
  return (
    <form className="form sso-new-connection" noValidate onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Add a connection</h3>
      <Alert message={error} />
      <fieldset className="choice-group">
        <legend>Protocol</legend>
        {(["saml", "oidc"] as const).map((p) => (
          <label key={p} className="choice" htmlFor={`${id}-${p}`}>
            <input id={`${id}-${p}`} type="radio" name={`${id}-protocol`} checked={protocol === p} onChange={() => setProtocol(p)} />
            {p === "saml" ? "SAML 2.0 (Okta, Entra ID, Google Workspace, ADFS, …)" : "OpenID Connect"}
          </label>
        ))}
      </fieldset>
      <TextField id={`${id}-name`} label="Name" value={name} maxLength={256} onChange={(e) => setName(e.target.value)} error={problem} />
      <div>
        <button type="submit" className="btn btn-secondary" disabled={busy} aria-busy={busy}>
          {busy ? "Adding…" : "Add connection"}
        </button>
      </div>
    </form>
  );
}

function ConnectionDetails({ sso, connection, onChanged }: Omit<Props, "connections"> & { connection: SsoConnection }) {
  const { project } = useProject();
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const { busy, error, run } = useAction();
  const sp = connection.serviceProvider;
  const rows: CopyValue[] = sp
    ? [
        { id: "sso-sp-entity-id", label: "Entity ID (audience)", value: sp.entityId },
        { id: "sso-sp-acs-url", label: "ACS URL", value: sp.acsUrl, hint: "HTTP-POST binding" },
        { id: "sso-sp-metadata-url", label: "Metadata URL", value: sp.metadataUrl, hint: "served once the connection is on" },
      ]
    : connection.oidcRedirectUri
      ? [{ id: "sso-oidc-redirect-uri", label: "Redirect URI", value: connection.oidcRedirectUri }]
      : [];
  const download = () =>
    run(async () => {
      const { metadataXml } = await sso.getSpMetadata(connection.id);
      const url = URL.createObjectURL(new Blob([metadataXml], { type: "application/samlmetadata+xml" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = `doorman-sp-metadata-${connection.id}.xml`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    }, "Could not download the metadata.");
  return (
    <div className="sso-connection" data-testid="sso-connection">
      <p>
        <strong>{connection.displayName}</strong> · {connection.protocol === "saml" ? "SAML 2.0" : "OpenID Connect"}{" "}
        <span className={connection.enabled ? "badge" : "badge badge-warn"} data-testid="sso-connection-status">
          {connection.enabled ? "On" : connection.isComplete ? "Off" : "Draft"}
        </span>
      </p>
      <h3>Give the identity provider these values</h3>
      <CopyValues rows={rows} />
      <Alert message={error} />
      <div className="row-actions">
        {sp ? (
          <button type="button" className="btn btn-secondary btn-small" onClick={() => void download()} disabled={busy}>
            Download SP metadata
          </button>
        ) : null}
        {connection.enabled ? (
          <a
            className="btn btn-secondary btn-small"
            href={testSignInUrl(origin, project.id, connection.id)}
            target="_blank"
            rel="noreferrer"
          >
            Test sign-in
          </a>
        ) : null}
      </div>
      <IdpSettingsForm sso={sso} connection={connection} onSaved={onChanged} />
      <AdvancedSettingsForm sso={sso} connection={connection} onSaved={onChanged} />
      <ConfirmButton
        label="Delete connection"
        title={`Delete “${connection.displayName}”?`}
        consequence="Nobody can sign in through it any more, and its SCIM token stops working. Its users keep their accounts and team memberships; the links between them and this IdP are deleted. Its domains stay claimed."
        confirmLabel="Delete connection"
        onConfirm={async () => {
          await sso.deleteConnection(connection.id);
          await onChanged(`“${connection.displayName}” deleted.`);
        }}
      />
    </div>
  );
}
