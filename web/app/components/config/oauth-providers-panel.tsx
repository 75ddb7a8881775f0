/**
 * The OAuth providers of a project: the list (shared development keys or own keys, the secret
 * shown only as "•••• stored"), add, edit and remove (behind a confirmation). Every change
 * PATCHes the whole provider list; providers sent without a secret keep their stored one.
 */

import type { ProjectConfig } from "@doorman/sdk";
import { useState } from "react";
import { ConfirmButton } from "../console-ui";
import { OAuthProviderForm, type ProviderInput } from "./oauth-provider-form";
import { providerName } from "./oauth-provider-ids";

type Provider = ProjectConfig["oauthProviders"][number];

export function OAuthProvidersPanel(props: {
  providers: Provider[];
  /** Saves the full list (throws the API's error). */
  saveProviders: (providers: Provider[], success: string) => Promise<void>;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  const { providers } = props;

  const upsert = async (input: ProviderInput) => {
    const exists = providers.some((p) => p.id === input.id);
    const next = exists ? providers.map((p) => (p.id === input.id ? withInput(p, input) : p)) : [...providers, input];
    await props.saveProviders(next, `${providerName(input.id)} ${exists ? "saved" : "added"}.`);
    setEditing(null);
  };

  const remove = (id: string) =>
    props.saveProviders(
      providers.filter((p) => p.id !== id),
      `${providerName(id)} removed.`,
    );

  return (
    <section className="panel" aria-labelledby="oauth-heading">
      <h2 id="oauth-heading">OAuth providers</h2>
      <p className="muted">
        Sign-in with an account elsewhere. Shared development keys are Doorman's own, for trying sign-in out; for your users, use your own
        client id and secret, so the provider shows your app's name.
      </p>
      {providers.length === 0 ? (
        <p className="empty">No provider yet.</p>
      ) : (
        <ul className="provider-list" aria-label="Configured providers">
          {providers.map((p) => (
            <li key={p.id} className="provider-item">
              <div className="provider-summary">
                <strong>{providerName(p.id)}</strong>
                {p.type === "shared" ? (
                  <span className="muted">Shared development keys</span>
                ) : (
                  <span className="muted">
                    Own keys · client id <code>{p.clientId}</code> · secret{" "}
                    {p.hasClientSecret ? <span>•••• stored</span> : <span>not set</span>}
                    <ExtrasSummary provider={p} />
                  </span>
                )}
                <span className="provider-actions">
                  <button
                    type="button"
                    className="btn btn-secondary btn-small"
                    aria-label={`Edit ${providerName(p.id)}`}
                    aria-expanded={editing === p.id}
                    onClick={() => setEditing(editing === p.id ? null : p.id)}
                  >
                    Edit
                  </button>
                  <ConfirmButton
                    small
                    label="Remove"
                    ariaLabel={`Remove ${providerName(p.id)}`}
                    title={`Remove ${providerName(p.id)}?`}
                    consequence={`Nobody can sign in with ${providerName(p.id)} any more, and its stored keys are deleted. Accounts stay; people who only used ${providerName(p.id)} need another way to sign in.`}
                    confirmLabel="Remove provider"
                    onConfirm={() => remove(p.id)}
                  />
                </span>
              </div>
              {editing === p.id ? (
                <OAuthProviderForm
                  editing={{
                    id: p.id,
                    type: p.type,
                    clientId: p.clientId,
                    hasClientSecret: p.hasClientSecret,
                    microsoftTenantId: p.microsoftTenantId,
                    facebookConfigId: p.facebookConfigId,
                    appleBundleIds: p.appleBundleIds,
                  }}
                  taken={[]}
                  onSubmit={upsert}
                  onCancel={() => setEditing(null)}
                />
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {/* Remounted after each change, so the provider select starts on one still available. */}
      <OAuthProviderForm key={providers.map((p) => p.id).join()} taken={providers.map((p) => p.id)} onSubmit={upsert} />
    </section>
  );
}

/**
 * A configured provider with the form's values. The form owns the provider-specific fields (tenant,
 * configuration, bundle ids): those it sends replace the stored ones, and one it leaves out (emptied)
 * is removed. Anything else on the provider is kept.
 */
function withInput(current: Provider, input: ProviderInput): Provider {
  if (input.type === "shared") return { id: current.id, type: "shared" };
  const { microsoftTenantId: _t, facebookConfigId: _f, appleBundleIds: _b, ...rest } = current;
  return { ...rest, ...input, type: "standard" };
}

/** The provider-specific settings of an own-keys provider, after its keys in the list. */
function ExtrasSummary({ provider: p }: { provider: Provider }) {
  if (p.id === "microsoft" && p.microsoftTenantId)
    return (
      <>
        {" "}
        · tenant <code>{p.microsoftTenantId}</code>
      </>
    );
  if (p.id === "facebook" && p.facebookConfigId)
    return (
      <>
        {" "}
        · configuration <code>{p.facebookConfigId}</code>
      </>
    );
  const bundles = p.id === "apple" ? (p.appleBundleIds ?? []) : [];
  if (bundles.length > 0) return <> · {bundles.length === 1 ? <code>{bundles[0]}</code> : `${bundles.length} bundle ids`}</>;
  return null;
}
