/**
 * OAuth apps → register an app, or edit one: name, type and how it authenticates at the token
 * endpoint, redirect URIs, the scopes it may ask for, the links and logo the consent page shows,
 * and a private_key_jwt app's public keys. Errors sit on their fields (aria-invalid), the API's
 * OAUTH_CLIENT_INVALID included.
 */
import type { OAuthClient } from "@doorman/sdk";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { Alert, TextField, useAction } from "../console-ui";
import {
  AUTH_METHOD_LABELS,
  AUTH_METHODS,
  CLIENT_FIELDS,
  type ClientField,
  type ClientFieldErrors,
  clientFormOf,
  clientFormProblems,
  emptyClientForm,
  type ClientForm as Form,
  placeClientError,
  withClientType,
} from "./client-form-model";

export function ClientForm(props: {
  /** The client being edited; absent: a new one. */
  editing?: OAuthClient;
  offeredScopes: string[];
  onSubmit: (form: Form) => Promise<void>;
  onCancel?: () => void;
}) {
  const formId = useId();
  const idOf = (field: ClientField) => `${formId}-${field}`;
  const editing = props.editing;
  const [form, setForm] = useState<Form>(() => (editing ? clientFormOf(editing) : emptyClientForm()));
  const [errors, setErrors] = useState<ClientFieldErrors>({});
  const { busy, error, run } = useAction();
  const set = (patch: Partial<Form>) => setForm((f) => ({ ...f, ...patch }));
  const focus = (field: ClientField) => setTimeout(() => document.getElementById(idOf(field))?.focus());
  const a11y = (field: ClientField, hint = false) => ({
    id: idOf(field),
    "aria-invalid": errors[field] ? (true as const) : undefined,
    "aria-describedby":
      [hint ? `${idOf(field)}-hint` : null, errors[field] ? `${idOf(field)}-error` : null].filter(Boolean).join(" ") || undefined,
  });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = clientFormProblems(form, editing ? { hasJwks: editing.hasJwks } : null);
    setErrors(found);
    const first = CLIENT_FIELDS.find((f) => found[f]);
    if (first) return void focus(first);
    const ok = await run(() => props.onSubmit(form), {
      fallback: editing ? "Could not save the app." : "Could not register the app.",
      message: (e, fallback) => {
        const placed = placeClientError(e);
        if (placed?.field) {
          setErrors({ [placed.field]: placed.message });
          focus(placed.field);
          return null;
        }
        return placed?.message ?? (e instanceof Error && e.message ? e.message : fallback);
      },
    });
    if (ok && !editing) setForm(emptyClientForm());
  };

  const heading = editing ? `Edit ${editing.name}` : "Register an app";
  return (
    <form className="panel form oauth-client-form" noValidate onSubmit={onSubmit} aria-labelledby={`${formId}-heading`}>
      <h2 id={`${formId}-heading`}>{heading}</h2>
      <TextField
        id={idOf("name")}
        label="Name"
        autoComplete="off"
        maxLength={256}
        hint="People see it on the consent page: use the name they know the app by."
        value={form.name}
        error={errors.name}
        onChange={(e) => set({ name: e.target.value })}
      />
      {editing ? (
        <p className="muted">
          A {editing.clientType} client. <span>Its type cannot change: register a new app for that.</span>
        </p>
      ) : (
        <fieldset className="field choice-group">
          <legend>Type</legend>
          <label className="choice">
            <input
              type="radio"
              name={`${formId}-type`}
              checked={form.clientType === "confidential"}
              onChange={() => setForm((f) => withClientType(f, "confidential"))}
            />
            Confidential <span className="muted">(a server-side app that can keep a secret)</span>
          </label>
          <label className="choice">
            <input
              type="radio"
              name={`${formId}-type`}
              checked={form.clientType === "public"}
              onChange={() => setForm((f) => withClientType(f, "public"))}
            />
            Public <span className="muted">(a browser, mobile or desktop app, or a CLI: PKCE only, no secret)</span>
          </label>
        </fieldset>
      )}
      {form.clientType === "confidential" ? (
        <Field field="token_endpoint_auth_method" label="Token endpoint authentication" idOf={idOf} errors={errors}>
          <select
            {...a11y("token_endpoint_auth_method")}
            className="input"
            value={form.authMethod}
            onChange={(e) => set({ authMethod: e.target.value as Form["authMethod"] })}
          >
            {AUTH_METHODS.confidential
              // Editing: a secret method stays a secret method, and private_key_jwt stays (the secret cannot appear or vanish).
              .filter((m) => !editing || (m === "private_key_jwt") === (editing.tokenEndpointAuthMethod === "private_key_jwt"))
              .map((m) => (
                <option key={m} value={m}>
                  {AUTH_METHOD_LABELS[m]}
                </option>
              ))}
          </select>
        </Field>
      ) : null}
      <Field
        field="redirect_uris"
        label="Redirect URIs"
        idOf={idOf}
        errors={errors}
        hint="One per line, matched exactly. https; http only on localhost, 127.0.0.1 or [::1] (native apps); or a private-use scheme such as com.example.app:/callback. No wildcards or fragments."
      >
        <textarea
          {...a11y("redirect_uris", true)}
          className="input"
          rows={3}
          spellCheck={false}
          autoComplete="off"
          value={form.redirectUris}
          onChange={(e) => set({ redirectUris: e.target.value })}
        />
      </Field>
      <fieldset className="field oauth-scopes" aria-describedby={errors.allowed_scopes ? `${idOf("allowed_scopes")}-error` : undefined}>
        <legend>Scopes it may ask for</legend>
        <label className="choice">
          <input
            id={idOf("allowed_scopes")}
            type="checkbox"
            checked={form.allScopes}
            aria-invalid={errors.allowed_scopes ? true : undefined}
            onChange={(e) => set({ allScopes: e.target.checked })}
          />
          Every scope the project offers
        </label>
        {form.allScopes
          ? null
          : props.offeredScopes.map((scope) => (
              <label key={scope} className="checkbox">
                <input
                  type="checkbox"
                  checked={form.scopes.includes(scope)}
                  onChange={(e) => set({ scopes: e.target.checked ? [...form.scopes, scope] : form.scopes.filter((s) => s !== scope) })}
                />{" "}
                <code>{scope}</code>
              </label>
            ))}
        {errors.allowed_scopes ? (
          <p className="field-error" id={`${idOf("allowed_scopes")}-error`}>
            {errors.allowed_scopes}
          </p>
        ) : null}
      </fieldset>
      <TextField
        id={idOf("logo_uri")}
        label="Logo URL (optional)"
        type="url"
        autoComplete="off"
        hint="https, or a small data:image/png;base64,… (16 KiB); shown on the consent page."
        value={form.logoUri}
        error={errors.logo_uri}
        onChange={(e) => set({ logoUri: e.target.value })}
      />
      <TextField
        id={idOf("client_uri")}
        label="Home page (optional)"
        type="url"
        autoComplete="off"
        value={form.clientUri}
        error={errors.client_uri}
        onChange={(e) => set({ clientUri: e.target.value })}
      />
      <TextField
        id={idOf("policy_uri")}
        label="Privacy policy (optional)"
        type="url"
        autoComplete="off"
        value={form.policyUri}
        error={errors.policy_uri}
        onChange={(e) => set({ policyUri: e.target.value })}
      />
      <TextField
        id={idOf("tos_uri")}
        label="Terms of service (optional)"
        type="url"
        autoComplete="off"
        value={form.tosUri}
        error={errors.tos_uri}
        onChange={(e) => set({ tosUri: e.target.value })}
      />
      {form.authMethod === "private_key_jwt" ? (
        <>
          <fieldset className="field choice-group">
            <legend>The app's public keys</legend>
            <label className="choice">
              <input type="radio" name={`${formId}-keys`} checked={form.keys === "jwks"} onChange={() => set({ keys: "jwks" })} />
              Paste a JWK Set
            </label>
            <label className="choice">
              <input type="radio" name={`${formId}-keys`} checked={form.keys === "jwksUri"} onChange={() => set({ keys: "jwksUri" })} />
              Fetch them from a URL
            </label>
          </fieldset>
          {form.keys === "jwks" ? (
            <Field
              field="jwks"
              label="JWK Set"
              idOf={idOf}
              errors={errors}
              hint={
                editing?.hasJwks
                  ? "Keys are stored; paste a new set to replace them, or leave this empty to keep them."
                  : "Public keys only: a key with private members (d, …) is refused."
              }
            >
              <textarea
                {...a11y("jwks", true)}
                className="input"
                rows={4}
                spellCheck={false}
                autoComplete="off"
                value={form.jwks}
                onChange={(e) => set({ jwks: e.target.value })}
              />
            </Field>
          ) : (
            <TextField
              id={idOf("jwks_uri")}
              label="JWK Set URL"
              type="url"
              autoComplete="off"
              value={form.jwksUri}
              error={errors.jwks_uri}
              onChange={(e) => set({ jwksUri: e.target.value })}
            />
          )}
        </>
      ) : null}
      <Alert message={error} focus />
      <div className="form-actions">
        <button type="submit" className="btn" disabled={busy} aria-busy={busy}>
          {busy ? "Saving…" : editing ? "Save app" : "Register app"}
        </button>
        {props.onCancel ? (
          <button type="button" className="btn btn-secondary" onClick={props.onCancel} disabled={busy}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

/** A labelled control that is not a plain input (select, textarea), with its hint and error. */
function Field(props: {
  field: ClientField;
  label: string;
  hint?: string;
  idOf: (f: ClientField) => string;
  errors: ClientFieldErrors;
  children: ReactNode;
}) {
  const id = props.idOf(props.field);
  const error = props.errors[props.field];
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {props.children}
      {props.hint ? (
        <p className="muted" id={`${id}-hint`}>
          {props.hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
