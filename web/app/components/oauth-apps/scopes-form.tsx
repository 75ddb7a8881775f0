/**
 * OAuth apps → custom scopes: the permissions an app can ask for beside openid, profile, email,
 * offline_access and team, each with the sentence the consent page shows. Saved as one record, so a
 * removed scope is gone; apps allowed only removed scopes can no longer ask for them.
 */
import { type FormEvent, useState } from "react";
import { useProject } from "../../lib/project-context";
import { Alert, TextField, useAction } from "../console-ui";
import {
  type FieldErrors,
  type ProviderSettings,
  type ScopeRow,
  scopeDescriptionId,
  scopeNameId,
  scopeProblems,
  scopeRowsOf,
  scopesOverride,
} from "./provider-settings";
import { saveProviderOverride } from "./save-override";

export function ScopesForm(props: { settings: ProviderSettings; onSaved: (message: string) => Promise<void> }) {
  const { project } = useProject();
  const [rows, setRows] = useState<ScopeRow[]>(() => scopeRowsOf(props.settings));
  const [errors, setErrors] = useState<FieldErrors>({});
  const { busy, error, run } = useAction();
  const focus = (id: string) => setTimeout(() => document.getElementById(id)?.focus());
  const setRow = (i: number, patch: Partial<ScopeRow>) => setRows((all) => all.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = scopeProblems(rows);
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) return void focus(first);
    await run(
      async () => {
        await saveProviderOverride(
          project,
          scopesOverride(rows),
          "Could not save the scopes.",
          (field, message) => {
            setErrors({ [field]: message });
            focus(field);
          },
          rows,
        );
        await props.onSaved("Custom scopes saved.");
      },
      { fallback: "Could not save the scopes.", message: (e, fallback) => (e instanceof Error ? e.message || null : fallback) },
    );
  };

  return (
    <section className="panel" aria-labelledby="oauth-scopes-heading">
      <h2 id="oauth-scopes-heading">Custom scopes</h2>
      <p className="muted">
        Every app can ask for <code>openid</code>, <code>profile</code>, <code>email</code>, <code>offline_access</code> (a refresh token)
        and <code>team</code> (a token bound to one of the user's teams). Add the permissions of your own API here, such as{" "}
        <code>notes:read</code>: the consent page shows each description, and your API checks the token's <code>scope</code>.
      </p>
      <form className="form" noValidate onSubmit={onSubmit} aria-label="Custom scopes">
        {rows.length === 0 ? <p className="empty">No custom scope yet.</p> : null}
        {rows.map((row, i) => (
          <fieldset className="oauth-scope-row" key={i}>
            <legend className="visually-hidden">Scope {i + 1}</legend>
            <TextField
              id={scopeNameId(i)}
              label="Name"
              autoComplete="off"
              spellCheck={false}
              value={row.name}
              error={errors[scopeNameId(i)]}
              onChange={(e) => setRow(i, { name: e.target.value })}
            />
            <TextField
              id={scopeDescriptionId(i)}
              label="What it lets an app do"
              autoComplete="off"
              value={row.description}
              error={errors[scopeDescriptionId(i)]}
              onChange={(e) => setRow(i, { description: e.target.value })}
            />
            <button
              type="button"
              className="btn btn-secondary btn-small"
              aria-label={`Remove scope ${row.name || i + 1}`}
              onClick={() => {
                setRows((all) => all.filter((_, j) => j !== i));
                setErrors({});
              }}
            >
              Remove
            </button>
          </fieldset>
        ))}
        <Alert message={error} focus />
        <div className="form-actions">
          <button type="button" className="btn btn-secondary" onClick={() => setRows((all) => [...all, { name: "", description: "" }])}>
            Add a scope
          </button>
          <button type="submit" className="btn" disabled={busy} aria-busy={busy}>
            {busy ? "Saving…" : "Save scopes"}
          </button>
        </div>
      </form>
    </section>
  );
}
