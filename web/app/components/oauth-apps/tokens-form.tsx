/**
 * OAuth apps → tokens: the access tokens' and refresh tokens' lifetimes, and the resource indicators
 * (RFC 8707) a token may be bound to: the APIs (MCP servers among them) that accept this project's tokens.
 */
import { type FormEvent, useState } from "react";
import { useProject } from "../../lib/project-context";
import { Alert, TextField, useAction } from "../console-ui";
import {
  type FieldErrors,
  type ProviderSettings,
  TOKEN_FIELD_IDS,
  type TokenForm,
  tokenFormOf,
  tokenOverride,
  tokenProblems,
} from "./provider-settings";
import { saveProviderOverride } from "./save-override";

export function TokensForm(props: { settings: ProviderSettings; onSaved: (message: string) => Promise<void> }) {
  const { project } = useProject();
  const [form, setForm] = useState<TokenForm>(() => tokenFormOf(props.settings));
  const [errors, setErrors] = useState<FieldErrors>({});
  const { busy, error, run } = useAction();
  const focus = (id: string) => setTimeout(() => document.getElementById(id)?.focus());
  const resourcesError = errors[TOKEN_FIELD_IDS.resources];

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = tokenProblems(form);
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) return void focus(first);
    await run(
      async () => {
        await saveProviderOverride(project, tokenOverride(form), "Could not save the token settings.", (field, message) => {
          setErrors({ [field]: message });
          focus(field);
        });
        await props.onSaved("Token settings saved.");
      },
      { fallback: "Could not save the token settings.", message: (e, fallback) => (e instanceof Error ? e.message || null : fallback) },
    );
  };

  return (
    <section className="panel" aria-labelledby="oauth-tokens-heading">
      <h2 id="oauth-tokens-heading">Tokens and APIs</h2>
      <form className="form" noValidate onSubmit={onSubmit} aria-label="Tokens and APIs">
        <TextField
          id={TOKEN_FIELD_IDS.accessTokenTtlSeconds}
          label="Access token lifetime (seconds)"
          inputMode="numeric"
          autoComplete="off"
          hint="APIs check access tokens locally, so a revoked grant's access token works until it expires: shorter is safer, longer means fewer refreshes."
          value={form.accessTokenTtlSeconds}
          error={errors[TOKEN_FIELD_IDS.accessTokenTtlSeconds]}
          onChange={(e) => setForm((f) => ({ ...f, accessTokenTtlSeconds: e.target.value }))}
        />
        <TextField
          id={TOKEN_FIELD_IDS.refreshTokenTtlDays}
          label="Refresh token lifetime (days)"
          inputMode="numeric"
          autoComplete="off"
          hint="How long an app that was granted offline_access stays signed in without the user."
          value={form.refreshTokenTtlDays}
          error={errors[TOKEN_FIELD_IDS.refreshTokenTtlDays]}
          onChange={(e) => setForm((f) => ({ ...f, refreshTokenTtlDays: e.target.value }))}
        />
        <div className="field">
          <label htmlFor={TOKEN_FIELD_IDS.resources}>Allowed APIs (resource indicators)</label>
          <textarea
            id={TOKEN_FIELD_IDS.resources}
            className="input"
            rows={3}
            spellCheck={false}
            autoComplete="off"
            placeholder={"https://api.example.com\nhttps://mcp.example.com/mcp"}
            value={form.resources}
            aria-invalid={resourcesError ? true : undefined}
            aria-describedby={`${TOKEN_FIELD_IDS.resources}-hint${resourcesError ? ` ${TOKEN_FIELD_IDS.resources}-error` : ""}`}
            onChange={(e) => setForm((f) => ({ ...f, resources: e.target.value }))}
          />
          <p className="muted" id={`${TOKEN_FIELD_IDS.resources}-hint`}>
            One URL per line. An app names the API it wants a token for (RFC 8707), and the token is valid only there. Empty: any https URL.
          </p>
          {resourcesError ? (
            <p className="field-error" id={`${TOKEN_FIELD_IDS.resources}-error`}>
              {resourcesError}
            </p>
          ) : null}
        </div>
        <Alert message={error} focus />
        <div className="form-actions">
          <button type="submit" className="btn" disabled={busy} aria-busy={busy}>
            {busy ? "Saving…" : "Save token settings"}
          </button>
        </div>
      </form>
    </section>
  );
}
