/**
 * The project's email server: Doorman's shared server, or the owner's SMTP (the password is
 * write-only: kept when left empty, never shown). "Send test email" tries the typed settings
 * without saving them.
 */

import type { ProjectConfig } from "@doorman/sdk/apps/admin-project";
import { useId, useState } from "react";
import type { OwnedProject } from "../../lib/dashboard-types";
import { Alert, useAction } from "../console-ui";

type Smtp = { host: string; port: string; username: string; password: string; senderName: string; senderEmail: string };

function initial(config: ProjectConfig["emailConfig"]): Smtp {
  if (config.type === "shared") return { host: "", port: "587", username: "", password: "", senderName: "", senderEmail: "" };
  return {
    host: config.host,
    port: String(config.port),
    username: config.username,
    password: "",
    senderName: config.senderName,
    senderEmail: config.senderEmail,
  };
}

/** Field errors of the SMTP form, by field. */
function smtpErrors(s: Smtp, passwordRequired: boolean): Partial<Record<keyof Smtp, string>> {
  const errors: Partial<Record<keyof Smtp, string>> = {};
  if (!s.host.trim()) errors.host = "Enter the SMTP host.";
  const port = Number(s.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) errors.port = "A port is a number from 1 to 65535.";
  if (passwordRequired && !s.password) errors.password = "Enter the password.";
  if (!s.senderName.trim()) errors.senderName = "Enter the sender's name.";
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s.senderEmail)) errors.senderEmail = "Enter a valid email address.";
  return errors;
}

export function EmailServerForm(props: { project: OwnedProject; onSaved: (message: string) => Promise<void> }) {
  const config = props.project.config.emailConfig;
  const [shared, setShared] = useState(config.type === "shared");
  const [smtp, setSmtp] = useState<Smtp>(() => initial(config));
  const [errors, setErrors] = useState<Partial<Record<keyof Smtp, string>>>({});
  const [testTo, setTestTo] = useState("");
  const [testResult, setTestResult] = useState<string | null>(null);
  const save = useAction();
  const test = useAction();
  const hasStoredPassword = config.type === "standard";
  const id = useId();

  const focusFirstError = (e: Partial<Record<keyof Smtp, string>>) => {
    const first = (Object.keys(e) as (keyof Smtp)[])[0];
    if (first) document.getElementById(`${id}-${first}`)?.focus();
  };

  const onSave = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!shared) {
      // The stored password is bound to its server: a new host, port or username needs it again.
      const serverChanged =
        config.type === "standard" &&
        (smtp.host.trim() !== config.host || Number(smtp.port) !== config.port || smtp.username !== config.username);
      const e = smtpErrors(smtp, !hasStoredPassword || serverChanged);
      setErrors(e);
      if (Object.keys(e).length) return focusFirstError(e);
    }
    const emailConfig: ProjectConfig["emailConfig"] = shared
      ? { type: "shared" }
      : {
          type: "standard",
          host: smtp.host.trim(),
          port: Number(smtp.port),
          username: smtp.username,
          senderName: smtp.senderName.trim(),
          senderEmail: smtp.senderEmail.trim(),
          ...(smtp.password ? { password: smtp.password } : {}),
        };
    const ok = await save.run(() => props.project.update({ config: { emailConfig } }), "Could not save the email server.");
    if (ok) {
      setSmtp((s) => ({ ...s, password: "" }));
      await props.onSaved(shared ? "Emails now go through the shared server." : "Email server saved.");
    }
  };

  const onTest = async () => {
    setTestResult(null);
    // The test sends with exactly the typed settings, so the password is needed even if one is stored.
    const e = smtpErrors(smtp, true);
    setErrors(e);
    if (Object.keys(e).length) return focusFirstError(e);
    await test.run(async () => {
      const result = await props.project.app.sendTestEmail({
        recipientEmail: testTo,
        emailConfig: { ...smtp, port: Number(smtp.port) },
      });
      setTestResult(
        result.success ? `Sent. Check the inbox of ${testTo}.` : `Not sent. ${result.errorMessage ?? "The server gave no reason."}`,
      );
    }, "Could not send the test email.");
  };

  const field = (key: keyof Smtp, label: string, type = "text", extra: Partial<React.InputHTMLAttributes<HTMLInputElement>> = {}) => (
    <div className="field">
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input
        id={`${id}-${key}`}
        className="input"
        type={type}
        value={smtp[key]}
        onChange={(e) => setSmtp({ ...smtp, [key]: e.target.value })}
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={errors[key] ? `${id}-${key}-error` : undefined}
        {...extra}
      />
      {errors[key] ? (
        <p id={`${id}-${key}-error`} className="field-error">
          {errors[key]}
        </p>
      ) : null}
    </div>
  );

  return (
    <form className="form" onSubmit={onSave} aria-labelledby={`${id}-title`} noValidate>
      <h2 id={`${id}-title`}>Email server</h2>
      <fieldset className="field">
        <legend>Send emails through</legend>
        <label className="inline">
          <input type="radio" name={`${id}-mode`} checked={shared} onChange={() => setShared(true)} /> Doorman&apos;s shared server
          (development)
        </label>
        <label className="inline">
          <input type="radio" name={`${id}-mode`} checked={!shared} onChange={() => setShared(false)} /> My own SMTP server
        </label>
      </fieldset>
      {shared ? null : (
        <>
          {field("host", "SMTP host", "text", { autoComplete: "off" })}
          {field("port", "Port", "text", { inputMode: "numeric" })}
          {field("username", "Username", "text", { autoComplete: "off" })}
          {field("password", hasStoredPassword ? "Password (leave empty to keep the stored one)" : "Password", "password", {
            autoComplete: "new-password",
            placeholder: hasStoredPassword ? "•••••••• stored" : undefined,
            "aria-describedby": errors.password ? `${id}-password-hint ${id}-password-error` : `${id}-password-hint`,
          })}
          <p className="muted" id={`${id}-password-hint`}>
            Changing the host, port or username clears the saved password: enter it again.
          </p>
          {field("senderName", "Sender name")}
          {field("senderEmail", "Sender email", "email")}
          <div className="field">
            <label htmlFor={`${id}-test-to`}>Send a test email to</label>
            <div className="inline">
              <input id={`${id}-test-to`} className="input" type="email" value={testTo} onChange={(e) => setTestTo(e.target.value)} />
              <button type="button" className="btn btn-secondary" onClick={onTest} disabled={test.busy || !testTo}>
                {test.busy ? "Sending…" : "Send test email"}
              </button>
            </div>
            {testResult ? <p role="status">{testResult}</p> : null}
            <Alert message={test.error} />
          </div>
        </>
      )}
      <Alert message={save.error} />
      <button type="submit" className="btn" disabled={save.busy}>
        {save.busy ? "Saving…" : "Save email server"}
      </button>
    </form>
  );
}
