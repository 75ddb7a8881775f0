/**
 * Adds or edits one OAuth provider: which provider, and shared development keys or the owner's own
 * client id and secret. The secret is write-only: when one is stored, the field stays empty with
 * the placeholder "•••• stored", and leaving it empty keeps the stored one. With own keys, three
 * providers have one more field: Microsoft's tenant, Facebook's Login for Business configuration
 * and Apple's native bundle ids. With own keys the form also shows the redirect URL to register at the
 * provider, with Copy.
 */

import { CopyButton } from "@doorman/sdk/react";
import { oauthCallbackUrl } from "@doorman/shared/oauth-providers";
import { type FormEvent, type ReactNode, type RefObject, useId, useRef, useState } from "react";
import { Alert, useAction } from "../console-ui";
import { configErrorMessage } from "./api-error";
import { OAUTH_PROVIDERS, providerName } from "./oauth-provider-ids";

/** Provider-specific fields (own keys only); an absent one is not set. */
export type ProviderExtras = { microsoftTenantId?: string; facebookConfigId?: string; appleBundleIds?: string[] };

export type ProviderInput = { id: string; type: "shared" | "standard"; clientId?: string; clientSecret?: string } & ProviderExtras;

type FieldName = "clientId" | "clientSecret" | "tenantId" | "facebookConfigId" | "bundleIds";

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Entra ID also takes a tenant's domain (contoso.onmicrosoft.com) in the same place.
const TENANT_DOMAIN = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i;
const BUNDLE_ID = /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;

const bundleIdLines = (text: string) => [...new Set(text.split("\n").map((line) => line.trim()))].filter(Boolean);

/** The error of a provider-specific field, or nothing when it is fine (empty is fine: each is optional). */
function extrasErrors(providerId: string, values: { tenantId: string; facebookConfigId: string; bundleIds: string }) {
  const errors: Partial<Record<FieldName, string>> = {};
  const tenant = values.tenantId.trim();
  if (providerId === "microsoft" && tenant && !["common", "organizations", "consumers"].includes(tenant) && !GUID.test(tenant)) {
    if (!TENANT_DOMAIN.test(tenant) || tenant.length > 256)
      errors.tenantId = "Use “common”, “organizations”, “consumers” or a tenant GUID (like 72f988bf-86f1-41af-91ab-2d7cd011db47).";
  }
  const configId = values.facebookConfigId.trim();
  if (providerId === "facebook" && configId && !/^\d{1,64}$/.test(configId))
    errors.facebookConfigId = "A configuration id is a number, like 1234567890123456.";
  const bad = bundleIdLines(values.bundleIds).find((b) => !BUNDLE_ID.test(b) || b.length > 256);
  if (providerId === "apple" && bad)
    errors.bundleIds = `“${bad}” is not a bundle id: use reverse-domain names like com.example.app, one per line.`;
  return errors;
}

/** The provider-specific values to send for this provider (empty ones left out, so they are removed). */
function extrasFor(providerId: string, values: { tenantId: string; facebookConfigId: string; bundleIds: string }): ProviderExtras {
  const tenant = values.tenantId.trim();
  const configId = values.facebookConfigId.trim();
  const bundleIds = bundleIdLines(values.bundleIds);
  if (providerId === "microsoft" && tenant) return { microsoftTenantId: tenant };
  if (providerId === "facebook" && configId) return { facebookConfigId: configId };
  if (providerId === "apple" && bundleIds.length > 0) return { appleBundleIds: bundleIds };
  return {};
}

export function OAuthProviderForm(props: {
  /** Edit this provider (its id is fixed); absent: add a new one. */
  editing?: { id: string; type: "shared" | "standard"; clientId?: string; hasClientSecret?: boolean } & ProviderExtras;
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
  const [tenantId, setTenantId] = useState(props.editing?.microsoftTenantId ?? "");
  const [facebookConfigId, setFacebookConfigId] = useState(props.editing?.facebookConfigId ?? "");
  const [bundleIds, setBundleIds] = useState((props.editing?.appleBundleIds ?? []).join("\n"));
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<FieldName, string>>>({});
  const { busy: pending, error: formError, setError: setFormError, run } = useAction();
  const refs: Record<FieldName, RefObject<HTMLInputElement | HTMLTextAreaElement | null>> = {
    clientId: useRef<HTMLInputElement>(null),
    clientSecret: useRef<HTMLInputElement>(null),
    tenantId: useRef<HTMLInputElement>(null),
    facebookConfigId: useRef<HTMLInputElement>(null),
    bundleIds: useRef<HTMLTextAreaElement>(null),
  };
  // Secrets are kept per id and type: a stored one exists only for an own-keys provider being edited.
  const secretStored = props.editing?.type === "standard" && type === "standard" && props.editing.hasClientSecret === true;
  const name = providerName(providerId);

  if (!props.editing && available.length === 0) return <p className="muted">Every supported provider is added.</p>;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    setFormError(null);
    const extras = { tenantId, facebookConfigId, bundleIds };
    const errors: typeof fieldErrors = {};
    if (type === "standard") {
      if (!clientId.trim()) errors.clientId = "Enter the client id from the provider's developer console.";
      if (!clientSecret && !secretStored) errors.clientSecret = "Enter the client secret.";
      Object.assign(errors, extrasErrors(providerId, extras));
    }
    setFieldErrors(errors);
    const first = (["clientId", "clientSecret", "tenantId", "facebookConfigId", "bundleIds"] as const).find((f) => errors[f]);
    if (first) return refs[first].current?.focus();
    await run(
      async () => {
        await props.onSubmit(
          type === "shared"
            ? { id: providerId, type }
            : {
                id: providerId,
                type,
                clientId: clientId.trim(),
                ...(clientSecret ? { clientSecret } : {}),
                ...extrasFor(providerId, extras),
              },
        );
        setClientSecret("");
      },
      { fallback: "Could not save the provider.", message: configErrorMessage },
    );
  };

  const heading = props.editing ? `Edit ${name}` : "Add a provider";
  return (
    <form className="form provider-form" noValidate onSubmit={onSubmit} aria-labelledby={`${formId}-heading`}>
      <h3 id={`${formId}-heading`}>{heading}</h3>
      <Alert message={formError} focus />
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
          <RedirectUrl providerId={providerId} name={name} />
          <div className="field">
            <label htmlFor={`${formId}-client-id`}>Client id</label>
            <input
              id={`${formId}-client-id`}
              ref={refs.clientId as RefObject<HTMLInputElement>}
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
              ref={refs.clientSecret as RefObject<HTMLInputElement>}
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
                ? "A secret is stored (encrypted, never shown again). Leave this empty to keep it. Changing the provider clears the saved secret: enter it again."
                : "Stored encrypted and never shown again."}
            </span>
            {fieldErrors.clientSecret ? (
              <p className="field-error" id={`${formId}-client-secret-error`}>
                {fieldErrors.clientSecret}
              </p>
            ) : null}
          </div>
          {providerId === "microsoft" ? (
            <ExtraField
              id={`${formId}-tenant-id`}
              label="Tenant id"
              error={fieldErrors.tenantId}
              hint="Who can sign in: “common” (any Microsoft account; the default when empty), “organizations” (work or school accounts), “consumers” (personal accounts) or a tenant GUID (one organization's accounts)."
            >
              {(a11y) => (
                <input
                  {...a11y}
                  ref={refs.tenantId as RefObject<HTMLInputElement>}
                  className="input"
                  value={tenantId}
                  autoComplete="off"
                  placeholder="common"
                  onChange={(e) => setTenantId(e.target.value)}
                />
              )}
            </ExtraField>
          ) : null}
          {providerId === "facebook" ? (
            <ExtraField
              id={`${formId}-facebook-config-id`}
              label="Configuration id"
              error={fieldErrors.facebookConfigId}
              hint="Facebook Login for Business, optional: the configuration then decides which permissions are asked for (instead of email and public profile)."
            >
              {(a11y) => (
                <input
                  {...a11y}
                  ref={refs.facebookConfigId as RefObject<HTMLInputElement>}
                  className="input"
                  value={facebookConfigId}
                  autoComplete="off"
                  inputMode="numeric"
                  onChange={(e) => setFacebookConfigId(e.target.value)}
                />
              )}
            </ExtraField>
          ) : null}
          {providerId === "apple" ? (
            <ExtraField
              id={`${formId}-bundle-ids`}
              label="Bundle ids"
              error={fieldErrors.bundleIds}
              hint="For your native iOS and macOS apps, one per line (like com.example.app); optional. They are kept with the provider: sign-in in the browser uses the client id (your Services ID) above."
            >
              {(a11y) => (
                <textarea
                  {...a11y}
                  ref={refs.bundleIds as RefObject<HTMLTextAreaElement>}
                  className="input"
                  rows={3}
                  value={bundleIds}
                  autoComplete="off"
                  spellCheck={false}
                  onChange={(e) => setBundleIds(e.target.value)}
                />
              )}
            </ExtraField>
          ) : null}
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

/**
 * The redirect (callback) URL the owner registers in the provider's developer console. The console
 * is served on the API's origin (the Pages function forwards /api to the worker), so it is this one.
 */
function RedirectUrl({ providerId, name }: { providerId: string; name: string }) {
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const url = oauthCallbackUrl(origin, providerId);
  return (
    <div className="field">
      <span className="field-label">Redirect URL</span>
      <div className="copy-row">
        <code className="key-value" data-testid="oauth-redirect-url">
          {url}
        </code>
        <CopyButton value={url} label={`the ${name} redirect URL`} className="btn btn-secondary btn-small" />
      </div>
      <span className="muted">
        Register this URL at {name} as the OAuth redirect (callback) URL of your app, then paste its client id and secret below.
      </span>
    </div>
  );
}

/** A labelled provider-specific field with its hint and error; the control gets id and aria attributes. */
function ExtraField(props: {
  id: string;
  label: string;
  hint: string;
  error?: string;
  children: (a11y: { id: string; "aria-invalid"?: true; "aria-describedby": string }) => ReactNode;
}) {
  const { id, error } = props;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {props.children({
        id,
        ...(error ? { "aria-invalid": true as const } : {}),
        "aria-describedby": `${id}-hint${error ? ` ${id}-error` : ""}`,
      })}
      <span className="muted" id={`${id}-hint`}>
        {props.hint}
      </span>
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
