/**
 * Creates a key set: a description, how long it stays valid, and which of the three keys it holds
 * (at least one). The created keys are shown once by the page.
 */

import { type FormEvent, useId, useRef, useState } from "react";
import { Alert, TextField, useAction } from "../console-ui";
import { configErrorMessage } from "./api-error";

export type NewKeySet = {
  description: string;
  expiresAt: Date;
  hasPublishableClientKey: boolean;
  hasSecretServerKey: boolean;
  hasSuperSecretAdminKey: boolean;
};

const DAY = 24 * 60 * 60 * 1000;
const EXPIRIES = [
  { days: 1, label: "1 day" },
  { days: 7, label: "7 days" },
  { days: 30, label: "30 days" },
  { days: 90, label: "90 days" },
  { days: 365, label: "1 year" },
  { days: 3650, label: "10 years" },
];

const KEYS = [
  { name: "hasPublishableClientKey", label: "Publishable client key", hint: "public, for browsers and apps" },
  { name: "hasSecretServerKey", label: "Secret server key", hint: "for your servers" },
  { name: "hasSuperSecretAdminKey", label: "Super secret admin key", hint: "full admin access to the project" },
] as const;

export function KeySetForm({ onCreate }: { onCreate: (keySet: NewKeySet) => Promise<void> }) {
  const formId = useId();
  const [description, setDescription] = useState("");
  const [days, setDays] = useState(365);
  const [keys, setKeys] = useState({ hasPublishableClientKey: true, hasSecretServerKey: true, hasSuperSecretAdminKey: false });
  const [errors, setErrors] = useState<{ description?: string; keys?: string }>({});
  const { busy: pending, error: formError, setError: setFormError, run } = useAction();
  const descriptionRef = useRef<HTMLInputElement>(null);
  const keysRef = useRef<HTMLFieldSetElement>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const found: typeof errors = {};
    if (!description.trim()) found.description = "Describe where these keys are used, like “production server”.";
    if (!Object.values(keys).some(Boolean)) found.keys = "Choose at least one key.";
    setErrors(found);
    setFormError(null);
    if (found.description) return descriptionRef.current?.focus();
    if (found.keys) return keysRef.current?.querySelector("input")?.focus();
    await run(
      async () => {
        await onCreate({ description: description.trim(), expiresAt: new Date(Date.now() + days * DAY), ...keys });
        setDescription("");
      },
      { fallback: "Could not create the key set.", message: configErrorMessage },
    );
  };

  return (
    <form className="panel form" noValidate onSubmit={onSubmit} aria-labelledby={`${formId}-heading`}>
      <h2 id={`${formId}-heading`}>Create a key set</h2>
      <Alert message={formError} focus />
      <TextField
        id={`${formId}-description`}
        label="Description"
        inputRef={descriptionRef}
        value={description}
        maxLength={256}
        autoComplete="off"
        error={errors.description}
        onChange={(e) => setDescription(e.target.value)}
      />
      <div className="field">
        <label htmlFor={`${formId}-expiry`}>Expires after</label>
        <select id={`${formId}-expiry`} className="input" value={days} onChange={(e) => setDays(Number(e.target.value))}>
          {EXPIRIES.map((x) => (
            <option key={x.days} value={x.days}>
              {x.label}
            </option>
          ))}
        </select>
      </div>
      <fieldset
        ref={keysRef}
        className="field choice-group"
        aria-invalid={errors.keys ? true : undefined}
        aria-describedby={errors.keys ? `${formId}-keys-error` : undefined}
      >
        <legend>Keys in this set</legend>
        {KEYS.map((k) => (
          <label key={k.name} className="choice">
            <input type="checkbox" checked={keys[k.name]} onChange={(e) => setKeys((all) => ({ ...all, [k.name]: e.target.checked }))} />
            {k.label} <span className="muted">({k.hint})</span>
          </label>
        ))}
        {errors.keys ? (
          <p className="field-error" id={`${formId}-keys-error`}>
            {errors.keys}
          </p>
        ) : null}
      </fieldset>
      <div className="form-actions">
        <button type="submit" className="btn" disabled={pending} aria-busy={pending}>
          {pending ? "Creating…" : "Create key set"}
        </button>
      </div>
    </form>
  );
}
