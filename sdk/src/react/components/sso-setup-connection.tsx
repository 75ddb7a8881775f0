/**
 * The sso-setup page's identity provider (issue 31): choose SAML or OpenID Connect (a draft is made
 * at once, so its values can be handed to the IdP first), copy Doorman's values into the IdP (SAML:
 * entity ID, ACS URL, metadata; OIDC: the redirect URI), then enter the IdP's values (SAML: its
 * metadata XML, pasted or uploaded, or the three fields; OIDC: issuer, client ID, secret). Saving
 * complete values turns the connection on.
 */
import { type FormEvent, type ReactNode, useId, useState } from "react";
import type { SsoConnection, SsoConnectionUpdate, TeamSsoManagement } from "../../index";
import { useTranslation } from "../i18n/context";
import type { MessageKey } from "../i18n/en";
import { messageOf } from "./code-messages";
import { CopyButton } from "./copy-button";
import { Field, FormAlert } from "./field";
import {
  formFieldOfError,
  type OidcForm,
  oidcFormOf,
  oidcUpdateOf,
  type SamlForm,
  type SsoFormField,
  samlFormOf,
  samlUpdateOf,
} from "./sso-setup-model";

type Errors = Partial<Record<SsoFormField, string>>;
type Props = { sso: TeamSsoManagement; connections: SsoConnection[]; onChanged: () => Promise<void>; headingLevel?: HeadingLevel };

/** The panel's section headings: h2 on the setup page; one level lower where a page nests it (team settings). */
export type HeadingLevel = 2 | 3;
const headingTag = (level: number) => (level === 2 ? "h2" : level === 3 ? "h3" : "h4");

/** Runs a save: its refusal goes on the field it names (aria-invalid there), else above the form. */
function useSave() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const run = async (work: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setErrors({});
    try {
      await work();
      return true;
    } catch (e) {
      setErrors({ [formFieldOfError(e)]: messageOf(e, t("common.somethingWrong")) });
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, errors, run };
}

export function SsoConnectionSection({ sso, connections, onChanged, headingLevel = 2 }: Props) {
  const Heading = headingTag(headingLevel);
  const { t } = useTranslation();
  const ids = useId();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const selected = connections.find((c) => c.id === selectedId) ?? connections[0] ?? null;
  return (
    <section className="stack-section" aria-labelledby={`${ids}-idp`}>
      <Heading id={`${ids}-idp`}>{t("ssoSetup.connectionHeading")}</Heading>
      {connections.length > 1 ? (
        <div className="stack-field" style={{ marginBottom: 12 }}>
          <label htmlFor={`${ids}-which`}>{t("ssoSetup.connection")}</label>
          <select id={`${ids}-which`} className="stack-input" value={selected?.id} onChange={(e) => setSelectedId(e.target.value)}>
            {connections.map((c) => (
              <option key={c.id} value={c.id}>
                {c.displayName}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {selected ? (
        <ConnectionEditor key={selected.id} sso={sso} connection={selected} onChanged={onChanged} headingLevel={headingLevel} />
      ) : null}
      {selected ? null : <CreateConnection sso={sso} onChanged={onChanged} />}
    </section>
  );
}

function CreateConnection({ sso, onChanged }: Omit<Props, "connections">) {
  const { t } = useTranslation();
  const ids = useId();
  const [protocol, setProtocol] = useState<"saml" | "oidc">("saml");
  const [name, setName] = useState("");
  const save = useSave();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const displayName = name.trim() || t(protocol === "saml" ? "ssoSetup.saml" : "ssoSetup.oidc");
    if (await save.run(() => sso.createConnection({ protocol, displayName }))) await onChanged();
  };
  return (
    <form className="stack-form" onSubmit={submit} noValidate>
      <fieldset className="stack-field" style={{ border: 0, padding: 0, margin: 0 }}>
        <legend>{t("ssoSetup.chooseProtocol")}</legend>
        {(["saml", "oidc"] as const).map((p) => (
          <label key={p} className="stack-checkbox">
            <input type="radio" name={`${ids}-protocol`} value={p} checked={protocol === p} onChange={() => setProtocol(p)} />
            {t(p === "saml" ? "ssoSetup.saml" : "ssoSetup.oidc")}
          </label>
        ))}
      </fieldset>
      <Field label={t("ssoSetup.name")} value={name} onChange={(e) => setName(e.target.value)} error={save.errors.name} maxLength={256} />
      <FormAlert message={save.errors.form} />
      <div className="stack-actions">
        <button className="stack-button" type="submit" disabled={save.busy}>
          {t("ssoSetup.create")}
        </button>
      </div>
    </form>
  );
}

/** One value Doorman gives the IdP, with a Copy button. */
function CopyRow({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <li className="stack-list-item">
      <span>
        <span className="stack-hint">{label}</span>
        <br />
        <code className="stack-code" data-testid={testId}>
          {value}
        </code>
      </span>
      <CopyButton value={value} label={label} />
    </li>
  );
}

function ConnectionEditor({ sso, connection, onChanged, headingLevel = 2 }: Omit<Props, "connections"> & { connection: SsoConnection }) {
  const Sub = headingTag(headingLevel + 1);
  const { t } = useTranslation();
  const ids = useId();
  const sp = connection.serviceProvider;
  const download = async () => {
    const { metadataXml } = await sso.getSpMetadata(connection.id);
    const url = URL.createObjectURL(new Blob([metadataXml], { type: "application/samlmetadata+xml" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = `sp-metadata-${connection.id}.xml`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <>
      <p>
        <strong>{connection.displayName}</strong>{" "}
        <span className={connection.enabled ? "stack-badge" : "stack-badge stack-badge-warn"} data-testid="sso-connection-status">
          {t(connection.enabled ? "ssoSetup.statusActive" : "ssoSetup.statusDraft")}
        </span>
      </p>
      <Sub id={`${ids}-sp`}>{t("ssoSetup.spHeading")}</Sub>
      <ul className="stack-list" aria-labelledby={`${ids}-sp`}>
        {sp ? (
          <>
            <CopyRow label={t("ssoSetup.entityId")} value={sp.entityId} testId="sso-sp-entity-id" />
            <CopyRow label={t("ssoSetup.acsUrl")} value={sp.acsUrl} testId="sso-sp-acs-url" />
            <CopyRow label={t("ssoSetup.metadataUrl")} value={sp.metadataUrl} testId="sso-sp-metadata-url" />
          </>
        ) : null}
        {connection.oidcRedirectUri ? (
          <CopyRow label={t("ssoSetup.redirectUri")} value={connection.oidcRedirectUri} testId="sso-oidc-redirect-uri" />
        ) : null}
      </ul>
      {sp ? (
        <div className="stack-actions" style={{ marginBottom: 16 }}>
          <button type="button" className="stack-button stack-secondary stack-small" onClick={() => void download()}>
            {t("ssoSetup.downloadMetadata")}
          </button>
        </div>
      ) : null}
      <Sub>{t("ssoSetup.idpHeading")}</Sub>
      {connection.protocol === "saml" ? (
        <SamlSettings sso={sso} connection={connection} onChanged={onChanged} />
      ) : (
        <OidcSettings sso={sso} connection={connection} onChanged={onChanged} />
      )}
    </>
  );
}

type SettingsProps = Omit<Props, "connections"> & { connection: SsoConnection };

/** The settings form's save: the update, the saved note, and the page reloaded. */
function useSettingsSave({ sso, connection, onChanged }: SettingsProps) {
  const save = useSave();
  const [saved, setSaved] = useState(false);
  /** Saves; answers the saved connection (null when refused). */
  const submit = async (update: SsoConnectionUpdate): Promise<SsoConnection | null> => {
    setSaved(false);
    let result: SsoConnection | null = null;
    if (
      await save.run(async () => {
        result = await sso.updateConnection(connection.id, update);
      })
    ) {
      setSaved(true);
      await onChanged();
    }
    return result;
  };
  return { ...save, saved, submit };
}

/** A multi-line field with its label and error (aria-invalid, aria-describedby). */
function TextArea(props: { label: string; value: string; onChange: (v: string) => void; error?: string; hint?: string; rows?: number }) {
  const id = useId();
  const described = props.error ? `${id}-error` : props.hint ? `${id}-hint` : undefined;
  return (
    <div className="stack-field">
      <label htmlFor={id}>{props.label}</label>
      <textarea
        id={id}
        className="stack-input"
        rows={props.rows ?? 4}
        value={props.value}
        spellCheck={false}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={described}
        style={{ fontFamily: "ui-monospace,monospace", fontSize: ".8rem" }}
      />
      {props.hint && !props.error ? (
        <p className="stack-hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p className="stack-field-error" id={`${id}-error`}>
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

function SettingsActions({ busy, saved, error }: { busy: boolean; saved: boolean; error?: string }): ReactNode {
  const { t } = useTranslation();
  return (
    <>
      <FormAlert message={error} />
      {saved ? (
        <p className="stack-success" role="status">
          {t("ssoSetup.saved")}
        </p>
      ) : null}
      <div className="stack-actions">
        <button className="stack-button" type="submit" disabled={busy}>
          {t(busy ? "common.saving" : "common.save")}
        </button>
      </div>
    </>
  );
}

function SamlSettings(props: SettingsProps) {
  const { t } = useTranslation();
  const [form, setForm] = useState<SamlForm>(() => samlFormOf(props.connection));
  const save = useSettingsSave(props);
  const set = (key: keyof SamlForm) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  const upload = async (file: File | undefined) => {
    if (file) set("metadataXml")(await file.text());
  };
  return (
    <form
      className="stack-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        // Saved: the form shows what the connection now holds (the metadata filled the fields).
        void save.submit(samlUpdateOf(form)).then((saved) => saved && setForm(samlFormOf(saved)));
      }}
    >
      <TextArea
        label={t("ssoSetup.metadataXml")}
        value={form.metadataXml}
        onChange={set("metadataXml")}
        hint={t("ssoSetup.metadataHint")}
        error={save.errors.metadataXml}
        rows={5}
      />
      <div className="stack-field">
        <label htmlFor={`${props.connection.id}-file`}>{t("ssoSetup.metadataFile")}</label>
        <input
          id={`${props.connection.id}-file`}
          type="file"
          accept=".xml,application/xml,text/xml,application/samlmetadata+xml"
          onChange={(e) => void upload(e.target.files?.[0])}
        />
      </div>
      <Field
        label={t("ssoSetup.idpEntityId")}
        value={form.entityId}
        onChange={(e) => set("entityId")(e.target.value)}
        error={save.errors.entityId}
      />
      <Field
        label={t("ssoSetup.idpSsoUrl")}
        type="url"
        value={form.ssoUrl}
        onChange={(e) => set("ssoUrl")(e.target.value)}
        error={save.errors.ssoUrl}
      />
      <TextArea
        label={t("ssoSetup.idpCertificate")}
        value={form.certificate}
        onChange={set("certificate")}
        error={save.errors.certificate}
      />
      <SettingsActions busy={save.busy} saved={save.saved} error={save.errors.form} />
    </form>
  );
}

function OidcSettings(props: SettingsProps) {
  const { t } = useTranslation();
  const [form, setForm] = useState<OidcForm>(() => oidcFormOf(props.connection));
  const save = useSettingsSave(props);
  const field = (key: keyof OidcForm, label: MessageKey, extra: { type?: string; hint?: string } = {}) => (
    <Field
      label={t(label)}
      type={extra.type}
      hint={extra.hint}
      value={form[key]}
      autoComplete="off"
      onChange={(e) => setForm((f) => ({ ...f, [key]: e.target.value }))}
      error={save.errors[key]}
    />
  );
  return (
    <form
      className="stack-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save.submit(oidcUpdateOf(form)).then((saved) => saved && setForm(oidcFormOf(saved)));
      }}
    >
      {field("issuer", "ssoSetup.issuer", { type: "url" })}
      {field("clientId", "ssoSetup.clientId")}
      {field("clientSecret", "ssoSetup.clientSecret", {
        type: "password",
        hint: props.connection.oidc?.hasClientSecret ? t("ssoSetup.clientSecretKept") : undefined,
      })}
      <SettingsActions busy={save.busy} saved={save.saved} error={save.errors.form} />
    </form>
  );
}
