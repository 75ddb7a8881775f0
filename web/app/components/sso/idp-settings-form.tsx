/**
 * Team SSO → the IdP's values of a connection: SAML (its metadata XML, pasted or uploaded, which fills
 * the entity ID, sign-on URL and certificate; or those fields) or OIDC (issuer, client ID, and the
 * write-only client secret). Saving complete values turns the connection on. The API's refusal goes
 * on the field it names (aria-invalid), the rest above the form. Shares its model with the hosted
 * sso-setup page (the SDK's sso-setup-model).
 */
import type { SsoConnection, TeamSsoManagement } from "@doorman/sdk";
import {
  formFieldOfError,
  type OidcForm,
  oidcFormOf,
  oidcUpdateOf,
  type SamlForm,
  type SsoFormField,
  samlFormOf,
  samlUpdateOf,
} from "@doorman/sdk/react/components/sso-setup-model";
import { type FormEvent, useId, useRef, useState } from "react";
import { errorMessage } from "../../lib/project-context";
import { Alert, TextField, useAction } from "../console-ui";

type Props = { sso: TeamSsoManagement; connection: SsoConnection; onSaved: (message: string) => Promise<void> };

function TextArea(props: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  hint?: string;
  rows?: number;
}) {
  const describedBy =
    [props.hint ? `${props.id}-hint` : null, props.error ? `${props.id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <textarea
        id={props.id}
        className="input sso-textarea"
        rows={props.rows ?? 4}
        spellCheck={false}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy}
      />
      {props.hint ? (
        <p className="muted" id={`${props.id}-hint`}>
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p className="field-error" id={`${props.id}-error`}>
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

export function IdpSettingsForm({ sso, connection, onSaved }: Props) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [saml, setSaml] = useState<SamlForm>(() => samlFormOf(connection));
  const [oidc, setOidc] = useState<OidcForm>(() => oidcFormOf(connection));
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<SsoFormField, string>>>({});
  const { busy, error, run } = useAction();
  const isSaml = connection.protocol === "saml";

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFieldErrors({});
    await run(
      async () => {
        const saved = await sso.updateConnection(connection.id, isSaml ? samlUpdateOf(saml) : oidcUpdateOf(oidc));
        // The form shows what the connection now holds (pasted metadata filled the fields).
        setSaml(samlFormOf(saved));
        setOidc(oidcFormOf(saved));
        await onSaved(saved.enabled ? `“${saved.displayName}” saved and on.` : `“${saved.displayName}” saved (still a draft).`);
      },
      {
        fallback: "Could not save the identity provider's values.",
        focus: formRef.current,
        message: (e, fallback) => {
          const field = formFieldOfError(e);
          if (field === "form") return errorMessage(e, fallback);
          setFieldErrors({ [field]: errorMessage(e, fallback) });
          return null;
        },
      },
    );
  };
  const setS = (key: keyof SamlForm) => (value: string) => setSaml((f) => ({ ...f, [key]: value }));
  const setO = (key: keyof OidcForm) => (value: string) => setOidc((f) => ({ ...f, [key]: value }));

  return (
    <form ref={formRef} className="form" noValidate onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>The identity provider's values</h3>
      <Alert message={error} />
      {isSaml ? (
        <>
          <TextArea
            id={`${id}-metadata`}
            label="IdP metadata XML"
            hint="Paste the IdP's SAML metadata, or upload its file: it fills the three fields below."
            value={saml.metadataXml}
            onChange={setS("metadataXml")}
            error={fieldErrors.metadataXml}
            rows={5}
          />
          <div className="field">
            <label htmlFor={`${id}-file`}>Metadata file</label>
            <input
              id={`${id}-file`}
              type="file"
              accept=".xml,application/xml,text/xml,application/samlmetadata+xml"
              onChange={async (e) => {
                const file = e.target.files?.[0];
                if (file) setS("metadataXml")(await file.text());
              }}
            />
          </div>
          <TextField
            id={`${id}-entity`}
            label="IdP entity ID (issuer)"
            value={saml.entityId}
            onChange={(e) => setS("entityId")(e.target.value)}
            error={fieldErrors.entityId}
          />
          <TextField
            id={`${id}-sso-url`}
            label="IdP sign-on URL (HTTP-Redirect)"
            type="url"
            value={saml.ssoUrl}
            onChange={(e) => setS("ssoUrl")(e.target.value)}
            error={fieldErrors.ssoUrl}
          />
          <TextArea
            id={`${id}-cert`}
            label="IdP signing certificate (PEM)"
            value={saml.certificate}
            onChange={setS("certificate")}
            error={fieldErrors.certificate}
          />
        </>
      ) : (
        <>
          <TextField
            id={`${id}-issuer`}
            label="Issuer URL"
            type="url"
            hint="Doorman reads its discovery document at {issuer}/.well-known/openid-configuration."
            value={oidc.issuer}
            onChange={(e) => setO("issuer")(e.target.value)}
            error={fieldErrors.issuer}
          />
          <TextField
            id={`${id}-client-id`}
            label="Client ID"
            autoComplete="off"
            value={oidc.clientId}
            onChange={(e) => setO("clientId")(e.target.value)}
            error={fieldErrors.clientId}
          />
          <TextField
            id={`${id}-client-secret`}
            label="Client secret"
            type="password"
            autoComplete="off"
            hint={
              connection.oidc?.hasClientSecret
                ? "A secret is stored (sealed; never shown). Leave empty to keep it."
                : "Sealed when saved, never shown again. Leave empty for a public client (PKCE only)."
            }
            value={oidc.clientSecret}
            onChange={(e) => setO("clientSecret")(e.target.value)}
            error={fieldErrors.clientSecret}
          />
        </>
      )}
      <div>
        <button type="submit" className="btn" disabled={busy} aria-busy={busy}>
          {busy ? "Saving…" : "Save the IdP's values"}
        </button>
      </div>
    </form>
  );
}
