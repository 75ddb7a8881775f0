/**
 * Adds or edits one OAuth provider: which provider, and shared development keys or the owner's own
 * client id and secret. The secret is write-only: when one is stored, the field stays empty with
 * the placeholder "•••• stored", and leaving it empty keeps the stored one.
 */

import { type FormEvent, useId, useRef, useState } from "react";
import { configErrorMessage } from "./api-error";
import { OAUTH_PROVIDERS, providerName } from "./oauth-provider-ids";

export type ProviderInput = { id: string; type: "shared" | "standard"; clientId?: string; clientSecret?: string };

export function OAuthProviderForm(props: {
  /** Edit this provider (its id is fixed); absent: add a new one. */
  editing?: { id: string; type: "shared" | "standard"; clientId?: string; hasClientSecret?: boolean };
  /** Provider ids already configured (not offered when adding). */
  taken: string[];
  onSubmit: (provider: ProviderInput) => Promise<void>;
  onCancel?: () => void;
}) {
  const formId = useId();
  const available = OAUTH_PROVIDERS.filter((p) => !props.taken.includes(p.id));
  const [providerId, setProviderId] = useState(props.editing?.id ?? available[0]?.id ?? "");
  const [type, setType] = useState<"shared" | "standard">(props.editing?.type ?? "shared");
  const [clientId, setClientId] = useState(props.editing?.clientId ?? "");
  const [clientSecret, setClientSecret] = useState("");
  const [fieldErrors, setFieldErrors] = useState<{ clientId?: string; clientSecret?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const clientIdRef = useRef<HTMLInputElement>(null);
  const secretRef = useRef<HTMLInputElement>(null);
  const errorRef = useRef<HTMLParagraphElement>(null);
  // Secrets are kept per id and type: a stored one exists only for an own-keys provider being edited.
  const secretStored = props.editing?.type === "standard" && type === "standard" && props.editing.hasClientSecret === true;
  const name = providerName(providerId);

  if (!props.editing && available.length === 0) return <p className="muted">Every supported provider is added.</p>;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    setFormError(null);
    const errors: typeof fieldErrors = {};
    if (type === "standard") {
      if (!clientId.trim()) errors.clientId = "Enter the client id from the provider's developer console.";
      if (!clientSecret && !secretStored) errors.clientSecret = "Enter the client secret.";
    }
    setFieldErrors(errors);
    if (errors.clientId) return clientIdRef.current?.focus();
    if (errors.clientSecret) return secretRef.current?.focus();
    setPending(true);
    try {
      await props.onSubmit(
        type === "shared"
          ? { id: providerId, type }
          : { id: providerId, type, clientId: clientId.trim(), ...(clientSecret ? { clientSecret } : {}) },
      );
      setClientSecret("");
    } catch (e) {
      setFormError(configErrorMessage(e, "Could not save the provider."));
      setPending(false);
      requestAnimationFrame(() => errorRef.current?.focus());
      return;
    }
    setPending(false);
  };

  const heading = props.editing ? `Edit ${name}` : "Add a provider";
  return (
    <form className="form provider-form" noValidate onSubmit={onSubmit} aria-labelledby={`${formId}-heading`}>
      <h3 id={`${formId}-heading`}>{heading}</h3>
      {formError ? (
        <p className="alert" role="alert" tabIndex={-1} ref={errorRef}>
          {formError}
        </p>
      ) : null}
      {props.editing ? null : (
        <div className="field">
          <label htmlFor={`${formId}-provider`}>Provider</label>
          <select id={`${formId}-provider`} className="input" value={providerId} onChange={(e) => setProviderId(e.target.value)}>
            {available.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
      )}
      <fieldset className="field choice-group">
        <legend>Keys</legend>
        <label className="choice">
          <input type="radio" name={`${formId}-type`} checked={type === "shared"} onChange={() => setType("shared")} />
          Shared development keys <span className="muted">(Doorman's keys: for trying things out)</span>
        </label>
        <label className="choice">
          <input type="radio" name={`${formId}-type`} checked={type === "standard"} onChange={() => setType("standard")} />
          My own client id and secret
        </label>
      </fieldset>
      {type === "standard" ? (
        <>
          <div className="field">
            <label htmlFor={`${formId}-client-id`}>Client id</label>
            <input
              id={`${formId}-client-id`}
              ref={clientIdRef}
              className="input"
              value={clientId}
              autoComplete="off"
              aria-invalid={fieldErrors.clientId ? true : undefined}
              aria-describedby={fieldErrors.clientId ? `${formId}-client-id-error` : undefined}
              onChange={(e) => setClientId(e.target.value)}
            />
            {fieldErrors.clientId ? (
              <p className="field-error" id={`${formId}-client-id-error`}>
                {fieldErrors.clientId}
              </p>
            ) : null}
          </div>
          <div className="field">
            <label htmlFor={`${formId}-client-secret`}>Client secret</label>
            <input
              id={`${formId}-client-secret`}
              ref={secretRef}
              className="input"
              type="password"
              value={clientSecret}
              autoComplete="new-password"
              placeholder={secretStored ? "•••• stored" : undefined}
              aria-invalid={fieldErrors.clientSecret ? true : undefined}
              aria-describedby={`${formId}-secret-hint${fieldErrors.clientSecret ? ` ${formId}-client-secret-error` : ""}`}
              onChange={(e) => setClientSecret(e.target.value)}
            />
            <span className="muted" id={`${formId}-secret-hint`}>
              {secretStored
                ? "A secret is stored (encrypted, never shown again). Leave this empty to keep it."
                : "Stored encrypted and never shown again."}
            </span>
            {fieldErrors.clientSecret ? (
              <p className="field-error" id={`${formId}-client-secret-error`}>
                {fieldErrors.clientSecret}
              </p>
            ) : null}
          </div>
        </>
      ) : null}
      <div className="form-actions">
        <button type="submit" className="btn" disabled={pending} aria-busy={pending}>
          {pending ? "Saving…" : props.editing ? `Save ${name}` : "Add provider"}
        </button>
        {props.onCancel ? (
          <button type="button" className="btn btn-secondary" onClick={props.onCancel} disabled={pending}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
