/**
 * Protection → Bot protection (Cloudflare Turnstile): the site keys, the secret key (write-only:
 * the page says whether one is stored and offers to replace or remove it, never shows it), the
 * widget's mode and which flows always require a token.
 */
import { type FormEvent, useState } from "react";
import { useProject } from "../../lib/project-context";
import { Alert, TextField, useAction } from "../console-ui";
import {
  type FieldErrors,
  FLOW_LABELS,
  FLOWS,
  type TurnstileForm as Form,
  type Protection,
  turnstileFormOf,
  turnstileOverride,
  turnstileProblems,
} from "./protection-config";
import { saveProtectionOverride } from "./save-override";

export function TurnstileForm(props: { protection: Protection; onSaved: (message: string) => Promise<void> }) {
  const { project } = useProject();
  const hasSecret = project.config.hasTurnstileSecretKey === true;
  const [form, setForm] = useState<Form>(() => turnstileFormOf(props.protection));
  const [errors, setErrors] = useState<FieldErrors>({});
  const { busy, error, run } = useAction();
  const set = (patch: Partial<Form>) => setForm((f) => ({ ...f, ...patch }));
  const focus = (id: string) => setTimeout(() => document.getElementById(id)?.focus());

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = turnstileProblems(form, hasSecret);
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) return void focus(first);
    await run(
      async () => {
        await saveProtectionOverride(project, turnstileOverride(form), "Could not save the bot protection.", (field, message) => {
          setErrors({ [field]: message });
          focus(field);
        });
        setForm((f) => ({ ...f, secretKey: "", removeSecret: false }));
        await props.onSaved("Bot protection saved.");
      },
      { fallback: "Could not save the bot protection.", message: (e, fallback) => (e instanceof Error ? e.message || null : fallback) },
    );
  };

  return (
    <section className="panel" aria-labelledby="turnstile-heading">
      <h2 id="turnstile-heading">Bot protection (Cloudflare Turnstile)</h2>
      <p className="muted">
        Turnstile tells people from bots without a puzzle for most visitors. Create a widget in the Cloudflare dashboard (Turnstile) for
        your app&apos;s domains and paste its keys here. Invisible mode shows nothing unless Cloudflare wants a closer look; managed mode
        shows a small box that usually ticks itself. It costs each person a short check (a few hundred milliseconds) on the flows you pick,
        and the server one call to Cloudflare per token.
      </p>
      <form className="form" noValidate onSubmit={onSubmit} aria-label="Bot protection">
        <TextField
          id="turnstile-site-key"
          label="Site key"
          autoComplete="off"
          placeholder="0x4AAAAAAA…"
          hint="Public: the widget on your pages uses it."
          value={form.siteKey}
          error={errors["turnstile-site-key"]}
          onChange={(e) => set({ siteKey: e.target.value })}
        />
        <TextField
          id="turnstile-invisible-site-key"
          label="Invisible site key (optional)"
          autoComplete="off"
          hint="The key of an invisible-mode widget, when it is a different widget; empty: the site key."
          value={form.invisibleSiteKey}
          error={errors["turnstile-invisible-site-key"]}
          onChange={(e) => set({ invisibleSiteKey: e.target.value })}
        />
        <div className="field">
          <p className="secret-state" id="turnstile-secret-state">
            <strong>Secret key:</strong>{" "}
            <span data-testid="turnstile-secret-state">{hasSecret ? "Set (stored sealed, never shown)" : "Not set"}</span>
          </p>
        </div>
        <TextField
          id="turnstile-secret-key"
          label={hasSecret ? "Replace the secret key" : "Secret key"}
          type="password"
          // Why: a write-only secret; the browser must not fill in the owner's own password here.
          autoComplete="new-password"
          hint={hasSecret ? "Leave empty to keep the stored key." : "From the same widget; the server verifies tokens with it."}
          value={form.secretKey}
          disabled={form.removeSecret}
          error={errors["turnstile-secret-key"]}
          onChange={(e) => set({ secretKey: e.target.value })}
        />
        {hasSecret ? (
          <div className="config-toggle">
            <input
              id="turnstile-remove-secret"
              type="checkbox"
              checked={form.removeSecret}
              onChange={(e) => set({ removeSecret: e.target.checked, secretKey: "" })}
            />
            <div className="config-toggle-text">
              <label htmlFor="turnstile-remove-secret">Remove the stored secret key</label>
            </div>
          </div>
        ) : null}
        <div className="field">
          <label htmlFor="turnstile-mode">Widget mode</label>
          <select
            id="turnstile-mode"
            className="input"
            value={form.mode}
            aria-describedby="turnstile-mode-hint"
            onChange={(e) => set({ mode: e.target.value as Form["mode"] })}
          >
            <option value="invisible">Invisible (default)</option>
            <option value="managed">Managed</option>
          </select>
          <p className="muted" id="turnstile-mode-hint">
            Invisible asks nothing of most people; when a check fails, they see the managed box once.
          </p>
        </div>
        <fieldset className="field">
          <legend>Always require a token for</legend>
          {FLOWS.map((flow) => (
            <label key={flow} className="inline">
              <input
                type="checkbox"
                name="turnstile-require"
                value={flow}
                checked={form.require[flow]}
                onChange={(e) => set({ require: { ...form.require, [flow]: e.target.checked } })}
              />{" "}
              {FLOW_LABELS[flow]}
            </label>
          ))}
          <p className="muted">
            Flows left off still ask for a token when a request&apos;s risk score reaches the challenge threshold below.
          </p>
        </fieldset>
        <Alert message={error} focus />
        <div className="form-actions">
          <button type="submit" className="btn" disabled={busy} aria-busy={busy}>
            {busy ? "Saving…" : "Save bot protection"}
          </button>
        </div>
      </form>
    </section>
  );
}
