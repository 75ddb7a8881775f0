/**
 * Team SSO → a connection's settings beyond the IdP's values: its name, on/off, and for SAML the
 * IdP-initiated sign-ins, signature and encryption requirements, signed requests and clock skew; the
 * attribute mapping (which SAML attribute or OIDC claim carries the email, name and groups).
 */
import type { SsoConnection, TeamSsoManagement } from "@doorman/sdk";
import { type FormEvent, useId, useRef, useState } from "react";
import { Alert, TextField, useAction } from "../console-ui";
import { type AdvancedForm, type AdvancedProblems, advancedFormOf, advancedProblems, advancedUpdateOf } from "./sso-console-model";

type Props = { sso: TeamSsoManagement; connection: SsoConnection; onSaved: (message: string) => Promise<void> };

const SAML_FLAGS: {
  key: "allowIdpInitiated" | "requireSignedResponse" | "requireEncryptedAssertions" | "signAuthnRequests";
  label: string;
}[] = [
  {
    key: "allowIdpInitiated",
    label: "Accept sign-ins started at the IdP (IdP-initiated; each is bounced into a fresh SP-initiated sign-in)",
  },
  { key: "requireSignedResponse", label: "Require the whole SAML response to be signed (the assertion always must be)" },
  { key: "requireEncryptedAssertions", label: "Require encrypted assertions (to this connection's certificate)" },
  { key: "signAuthnRequests", label: "Sign authentication requests (some IdPs require it)" },
];

export function AdvancedSettingsForm({ sso, connection, onSaved }: Props) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [form, setForm] = useState<AdvancedForm>(() => advancedFormOf(connection));
  const [problems, setProblems] = useState<AdvancedProblems>({});
  const { busy, error, run } = useAction();
  const set = <K extends keyof AdvancedForm>(key: K, value: AdvancedForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = advancedProblems(form);
    setProblems(found);
    if (Object.keys(found).length > 0) {
      formRef.current?.querySelector<HTMLElement>("[aria-invalid=true]")?.focus();
      return;
    }
    await run(
      async () => {
        const saved = await sso.updateConnection(connection.id, advancedUpdateOf(form, connection.protocol));
        await onSaved(`“${saved.displayName}” settings saved.`);
      },
      { fallback: "Could not save the settings.", focus: formRef.current },
    );
  };

  return (
    <form ref={formRef} className="form" noValidate onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Settings</h3>
      <Alert message={error} />
      <TextField
        id={`${id}-name`}
        label="Name"
        value={form.displayName}
        maxLength={256}
        onChange={(e) => set("displayName", e.target.value)}
        error={problems.displayName}
      />
      <label className="choice" htmlFor={`${id}-enabled`}>
        <input id={`${id}-enabled`} type="checkbox" checked={form.enabled} onChange={(e) => set("enabled", e.target.checked)} />
        On: people sign in through this connection {connection.isComplete ? "" : "(needs the IdP's values first)"}
      </label>
      {connection.protocol === "saml" ? (
        <fieldset className="choice-group">
          <legend>SAML</legend>
          {SAML_FLAGS.map((flag) => (
            <label key={flag.key} className="choice" htmlFor={`${id}-${flag.key}`}>
              <input id={`${id}-${flag.key}`} type="checkbox" checked={form[flag.key]} onChange={(e) => set(flag.key, e.target.checked)} />
              {flag.label}
            </label>
          ))}
          <TextField
            id={`${id}-skew`}
            label="Clock skew (seconds)"
            inputMode="numeric"
            hint="How far the IdP's clock may be off; 120 by default, 600 at most."
            value={form.clockSkewSeconds}
            onChange={(e) => set("clockSkewSeconds", e.target.value)}
            error={problems.clockSkewSeconds}
          />
        </fieldset>
      ) : null}
      <fieldset className="choice-group">
        <legend>Attribute mapping</legend>
        <p className="muted">
          Empty: the protocol's default (SAML: the NameID and common attribute names; OIDC: email, name, groups claims).
        </p>
        <TextField id={`${id}-email`} label="Email" value={form.emailAttribute} onChange={(e) => set("emailAttribute", e.target.value)} />
        <TextField id={`${id}-display`} label="Name" value={form.nameAttribute} onChange={(e) => set("nameAttribute", e.target.value)} />
        <TextField
          id={`${id}-groups`}
          label="Groups"
          value={form.groupsAttribute}
          onChange={(e) => set("groupsAttribute", e.target.value)}
        />
      </fieldset>
      <div>
        <button type="submit" className="btn" disabled={busy} aria-busy={busy}>
          {busy ? "Saving…" : "Save settings"}
        </button>
      </div>
    </form>
  );
}
