/**
 * Team SSO → the team's email domains: claim one, publish its TXT record (name and value to copy),
 * Verify (a DNS-over-HTTPS lookup now; the daily check keeps verified ones honest), and for each:
 * the connection its emails go to, "Require SSO" (other sign-in methods refused for its emails) and
 * "Auto-join" (first SSO sign-in joins the team), and remove.
 */
import type { SsoConnection, SsoDomain, SsoDomainUpdate, TeamSsoManagement } from "@doorman/sdk";
import { CopyButton } from "@doorman/sdk/react";
import { type FormEvent, useId, useState } from "react";
import { formatDateTime } from "../../lib/format";
import { errorMessage } from "../../lib/project-context";
import { Alert, ConfirmButton, TextField, useAction } from "../console-ui";
import { DataTable } from "../data-table";
import { DOMAIN_STATUS } from "./sso-console-model";

type Props = { sso: TeamSsoManagement; domains: SsoDomain[]; connections: SsoConnection[]; onChanged: (message: string) => Promise<void> };

/** Why Verify did not verify, in the console's words. */
function verifyFailure(error: unknown): string {
  const { code, details } = (error ?? {}) as { code?: string; details?: { reason?: string } };
  if (code === "SSO_DOMAIN_VERIFICATION_FAILED")
    return details?.reason === "resolver_unavailable"
      ? "The DNS lookup failed. Try again in a minute."
      : "The TXT record was not found yet. DNS changes can take a while to appear: try again later.";
  return errorMessage(error, "Could not verify the domain.");
}

export function DomainsPanel({ sso, domains, connections, onChanged }: Props) {
  const id = useId();
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Email domains</h2>
      <p className="muted">
        A verified domain sends its people's sign-ins to the team's identity provider. Only one team of the project can verify a domain.
      </p>
      <DataTable
        className="sso-domains"
        caption="Email domains"
        captionClassName="visually-hidden"
        isEmpty={domains.length === 0}
        empty="No domain yet. Claim the team's email domain below."
        stack={["Domain", "TXT record", "Policies", ""]}
      >
        <thead>
          <tr>
            <th scope="col">Domain</th>
            <th scope="col">TXT record</th>
            <th scope="col">Policies</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {domains.map((d) => (
            <DomainRow key={d.id} sso={sso} domain={d} connections={connections} onChanged={onChanged} />
          ))}
        </tbody>
      </DataTable>
      <ClaimForm sso={sso} onChanged={onChanged} />
    </section>
  );
}

function DomainRow({ sso, domain, connections, onChanged }: Omit<Props, "domains"> & { domain: SsoDomain }) {
  const id = useId();
  const { running, error, run } = useAction();
  // The switches show the new state while it is saved (and the saved one again if saving fails).
  const [pending, setPending] = useState<SsoDomainUpdate>({});
  const status = DOMAIN_STATUS[domain.status];
  const change = async (update: SsoDomainUpdate, name: string, done: string) => {
    setPending(update);
    await run(
      async () => {
        await sso.updateDomain(domain.id, update);
        await onChanged(done);
      },
      { name, fallback: "Could not save." },
    );
    setPending({});
  };
  const verify = () =>
    run(
      async () => {
        await sso.verifyDomain(domain.id);
        await onChanged(`${domain.domain} is verified.`);
      },
      { name: "verify", message: verifyFailure },
    );
  return (
    <tr data-testid={`sso-domain-${domain.domain}`}>
      <td>
        <strong>{domain.domain}</strong>
        <div>
          <span className={status.tone === "ok" ? "badge" : "badge badge-warn"} data-testid="sso-domain-status">
            {status.label}
          </span>
        </div>
        <div className="muted">{domain.checkedAt ? `Checked ${formatDateTime(domain.checkedAt)}` : "Not checked yet"}</div>
      </td>
      <td>
        <div className="sso-txt">
          <span className="muted">Name</span> <code>{domain.txtRecord.name}</code>
          <CopyButton value={domain.txtRecord.name} label={`TXT name of ${domain.domain}`} className="btn btn-secondary btn-small" />
        </div>
        <div className="sso-txt">
          <span className="muted">Value</span> <code data-testid="sso-domain-txt-value">{domain.txtRecord.value}</code>
          <CopyButton value={domain.txtRecord.value} label={`TXT value of ${domain.domain}`} className="btn btn-secondary btn-small" />
        </div>
        <Alert message={error} />
      </td>
      <td>
        <label className="choice" htmlFor={`${id}-enforce`}>
          <input
            id={`${id}-enforce`}
            type="checkbox"
            checked={pending.enforceSso ?? domain.enforceSso}
            disabled={running !== null}
            onChange={(e) =>
              void change(
                { enforceSso: e.target.checked },
                "enforce",
                `Require SSO for ${domain.domain}: ${e.target.checked ? "on" : "off"}.`,
              )
            }
          />
          Require SSO
        </label>
        <label className="choice" htmlFor={`${id}-join`}>
          <input
            id={`${id}-join`}
            type="checkbox"
            checked={pending.autoJoin ?? domain.autoJoin}
            disabled={running !== null}
            onChange={(e) =>
              void change({ autoJoin: e.target.checked }, "join", `Auto-join for ${domain.domain}: ${e.target.checked ? "on" : "off"}.`)
            }
          />
          Auto-join the team
        </label>
        {connections.length > 1 ? (
          <div className="field">
            <label htmlFor={`${id}-connection`}>Connection</label>
            <select
              id={`${id}-connection`}
              className="input"
              value={domain.connectionId ?? ""}
              disabled={running !== null}
              onChange={(e) => void change({ connectionId: e.target.value || null }, "connection", `${domain.domain} routed.`)}
            >
              <option value="">The first one that is on</option>
              {connections.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.displayName}
                </option>
              ))}
            </select>
          </div>
        ) : null}
      </td>
      <td data-label="">
        <div className="row-actions">
          {domain.status === "verified" ? null : (
            <button
              type="button"
              className="btn btn-small"
              onClick={() => void verify()}
              disabled={running !== null}
              aria-busy={running === "verify"}
            >
              {running === "verify" ? "Checking…" : "Verify"}
            </button>
          )}
          <ConfirmButton
            small
            label="Remove"
            ariaLabel={`Remove ${domain.domain}`}
            title={`Remove ${domain.domain}?`}
            consequence="Its emails stop going to the team's identity provider at once; SSO is no longer required for them, and new users no longer join the team by themselves."
            confirmLabel="Remove domain"
            onConfirm={async () => {
              await sso.removeDomain(domain.id);
              await onChanged(`${domain.domain} removed.`);
            }}
          />
        </div>
      </td>
    </tr>
  );
}

function ClaimForm({ sso, onChanged }: Pick<Props, "sso" | "onChanged">) {
  const id = useId();
  const [name, setName] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const { busy, run } = useAction();
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!name.trim()) return setProblem("Enter a domain, such as example.com.");
    setProblem(null);
    await run(
      async () => {
        const claimed = await sso.claimDomain(name);
        setName("");
        await onChanged(`${claimed.domain} claimed: publish its TXT record, then verify it.`);
      },
      {
        message: (e, fallback) => {
          setProblem(errorMessage(e, fallback));
          return null;
        },
        fallback: "Could not claim the domain.",
      },
    );
  };
  return (
    <form className="form team-inline-form" noValidate onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Claim a domain</h3>
      <TextField
        id={`${id}-domain`}
        label="Domain"
        placeholder="example.com"
        autoComplete="off"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={problem}
      />
      <div>
        <button type="submit" className="btn btn-secondary" disabled={busy} aria-busy={busy}>
          {busy ? "Claiming…" : "Claim domain"}
        </button>
      </div>
    </form>
  );
}
