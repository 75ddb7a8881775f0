/**
 * `/projects/{id}/keys`: the project's key sets (description, created, expires, the last four
 * characters of each key, valid/expired/revoked), creating one (its keys shown once with copy
 * buttons) and revoking one behind a confirmation.
 */

import type { InternalApiKey } from "@doorman/sdk";
import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { useCallback, useEffect, useState } from "react";
import { KeySetForm, type NewKeySet } from "../components/config/key-set-form";
import { NewKeySetPanel } from "../components/config/new-key-set-panel";
import { ConfirmButton, Loaded, PageHeading } from "../components/console-ui";
import { DataTable } from "../components/data-table";
import { RouteError } from "../components/route-error";
import type { FirstViewKeys } from "../lib/dashboard-types";
import { formatShortDay } from "../lib/format";
import { errorMessage, useProject } from "../lib/project-context";

export const meta: MetaFunction = () => [{ title: "Keys · Doorman" }];

const byNewest = (a: InternalApiKey, b: InternalApiKey) => b.createdAt.getTime() - a.createdAt.getTime();

export default function KeysRoute() {
  const { project, toast } = useProject();
  const [keySets, setKeySets] = useState<InternalApiKey[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<FirstViewKeys | null>(null);

  const load = useCallback(async () => setKeySets((await project.app.listInternalApiKeys()).sort(byNewest)), [project]);
  useEffect(() => {
    load().catch((e: unknown) => setError(errorMessage(e, "Could not load the key sets.")));
  }, [load]);

  const onCreate = async (keySet: NewKeySet) => {
    const keys = await project.app.createInternalApiKey(keySet);
    setCreated(keys);
    toast(`Key set “${keys.description}” created.`);
    await load();
  };

  const onRevoke = async (keySet: InternalApiKey) => {
    await keySet.revoke();
    toast(`Key set “${keySet.description}” revoked.`);
    await load();
  };

  return (
    <>
      <PageHeading title={`Keys · ${project.displayName}`}>
        <p className="muted">
          Your app uses these keys with the project id <code>{project.id}</code>. Only the last four characters are kept visible.{" "}
          <Link to={`/projects/${project.id}/connect`}>Connect an app</Link> shows where they go.
        </p>
      </PageHeading>
      {created ? <NewKeySetPanel projectId={project.id} keys={created} onDone={() => setCreated(null)} /> : null}
      <section className="panel" aria-labelledby="key-sets-heading">
        <h2 id="key-sets-heading">Key sets</h2>
        <Loaded value={keySets} error={error} what="the key sets">
          {(list) => (
            <DataTable isEmpty={list.length === 0} empty="No key set yet." className="key-set-table">
              <thead>
                <tr>
                  <th scope="col">Description</th>
                  <th scope="col">Keys</th>
                  <th scope="col">Created</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((k) => (
                  <KeySetRow key={k.id} keySet={k} onRevoke={onRevoke} />
                ))}
              </tbody>
            </DataTable>
          )}
        </Loaded>
      </section>
      <KeySetForm onCreate={onCreate} />
    </>
  );
}

function KeySetRow({ keySet: k, onRevoke }: { keySet: InternalApiKey; onRevoke: (k: InternalApiKey) => Promise<void> }) {
  const why = k.whyInvalid();
  const status = why === null ? "valid" : why === "expired" ? "expired" : "revoked";
  const parts = [
    k.publishableClientKey && ["Publishable", k.publishableClientKey.lastFour],
    k.secretServerKey && ["Secret server", k.secretServerKey.lastFour],
    k.superSecretAdminKey && ["Admin", k.superSecretAdminKey.lastFour],
  ].filter(Boolean) as [string, string][];
  return (
    <tr>
      <td>{k.description}</td>
      <td>
        <ul className="last-four">
          {parts.map(([label, four]) => (
            <li key={label}>
              {label} <code>…{four}</code>
            </li>
          ))}
        </ul>
      </td>
      <td>{formatShortDay(k.createdAt)}</td>
      <td>{formatShortDay(k.expiresAt)}</td>
      <td>
        <span className={`badge key-status-${status}`}>{status}</span>
      </td>
      <td>
        {status === "valid" ? (
          <ConfirmButton
            small
            label="Revoke"
            ariaLabel={`Revoke ${k.description}`}
            title={`Revoke the key set “${k.description}”?`}
            consequence={`Every app and server using these keys (${parts.map(([l, f]) => `${l} …${f}`).join(", ")}) stops working at once. This cannot be undone.`}
            confirmLabel="Revoke key set"
            onConfirm={() => onRevoke(k)}
          />
        ) : null}
      </td>
    </tr>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
