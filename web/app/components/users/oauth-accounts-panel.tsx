/** The provider accounts (OAuth) linked to the user, each unlinkable after a confirmation. */

import type { ServerUser } from "@doorman/sdk";
import { useCallback, useId } from "react";
import { useLoad } from "../../lib/use-load";
import { ConfirmButton } from "../console-ui";
import { DataTable, IdText } from "../data-table";

type Props = { user: ServerUser; label: string; toast: (m: string) => void; onChange: () => Promise<void> };

export function OAuthAccountsPanel({ user, label, toast, onChange }: Props) {
  const id = useId();
  const load = useCallback(() => user.listOAuthProviders(), [user]);
  const accounts = useLoad(load, "the OAuth accounts");
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>OAuth accounts</h2>
      {accounts.error ? (
        <p className="alert" role="alert">
          {accounts.error}
        </p>
      ) : accounts.value === null ? (
        <p className="muted" role="status">
          Loading OAuth accounts…
        </p>
      ) : (
        <DataTable
          isEmpty={accounts.value.length === 0}
          empty="No linked provider accounts."
          className="user-table"
          label="Linked provider accounts"
          stack={["Provider", "Account", "Used for", ""]}
        >
          <thead>
            <tr>
              <th scope="col">Provider</th>
              <th scope="col">Account</th>
              <th scope="col">Used for</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {accounts.value.map((a) => (
              <tr key={a.id}>
                <td>{a.providerConfigId}</td>
                <td>
                  <IdText id={a.accountId} />
                  {a.email ? <div className="muted">{a.email}</div> : null}
                </td>
                <td>{[a.allowSignIn && "sign-in", a.allowConnectedAccounts && "connected account"].filter(Boolean).join(", ") || "—"}</td>
                <td>
                  <ConfirmButton
                    small
                    label="Unlink"
                    ariaLabel={`Unlink ${a.providerConfigId} account ${a.accountId}`}
                    title={`Unlink this ${a.providerConfigId} account?`}
                    consequence={`${label} can no longer sign in with it, and your app loses access to the provider through it.`}
                    confirmLabel="Unlink account"
                    onConfirm={async () => {
                      await a.delete();
                      toast(`${a.providerConfigId} account unlinked.`);
                      await Promise.all([accounts.reload(), onChange()]);
                    }}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}
    </section>
  );
}
