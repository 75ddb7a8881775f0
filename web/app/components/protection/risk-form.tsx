/** Protection → Risk thresholds: the scores (0 to 100; 101 = never) at which a bot check or an emailed device code is demanded anyway. */
import { type FormEvent, useState } from "react";
import { useProject } from "../../lib/project-context";
import { Alert, TextField, useAction } from "../console-ui";
import { type FieldErrors, type RiskForm as Form, type Protection, riskOverride, riskProblems } from "./protection-config";
import { saveProtectionOverride } from "./save-override";

export function RiskForm(props: { protection: Protection; onSaved: (message: string) => Promise<void> }) {
  const { project } = useProject();
  const [form, setForm] = useState<Form>({
    challengeAt: String(props.protection.risk.challengeAt),
    verifyDeviceAt: String(props.protection.risk.verifyDeviceAt),
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const { busy, error, run } = useAction();
  const focus = (id: string) => setTimeout(() => document.getElementById(id)?.focus());

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = riskProblems(form);
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) return void focus(first);
    await run(
      async () => {
        await saveProtectionOverride(project, riskOverride(form), "Could not save the thresholds.", (field, message) => {
          setErrors({ [field]: message });
          focus(field);
        });
        await props.onSaved("Risk thresholds saved.");
      },
      { fallback: "Could not save the thresholds.", message: (e, fallback) => (e instanceof Error ? e.message || null : fallback) },
    );
  };

  return (
    <section className="panel" aria-labelledby="risk-heading">
      <h2 id="risk-heading">Risk thresholds</h2>
      <p className="muted">
        Each sign-in and sign-up gets a risk score from 0 to 100 from plain signals: a new device or country, impossible travel, many
        failures, a disposable email domain, a Tor exit. The event log shows the score and its reasons. Lower thresholds stop more attacks
        and ask more honest people for a check; 101 turns a threshold off.
      </p>
      <form className="form" noValidate onSubmit={onSubmit} aria-label="Risk thresholds">
        <TextField
          id="risk-challenge-at"
          label="Ask for a bot check from score"
          inputMode="numeric"
          autoComplete="off"
          hint="At or above it, a Turnstile token is required even on flows not listed above (when the project has Turnstile keys)."
          value={form.challengeAt}
          error={errors["risk-challenge-at"]}
          onChange={(e) => setForm((f) => ({ ...f, challengeAt: e.target.value }))}
        />
        <TextField
          id="risk-verify-device-at"
          label="Ask for an emailed device code from score"
          inputMode="numeric"
          autoComplete="off"
          hint="At or above it, a password sign-in needs a code sent to the user's email, even from a known device."
          value={form.verifyDeviceAt}
          error={errors["risk-verify-device-at"]}
          onChange={(e) => setForm((f) => ({ ...f, verifyDeviceAt: e.target.value }))}
        />
        <Alert message={error} focus />
        <div className="form-actions">
          <button type="submit" className="btn" disabled={busy} aria-busy={busy}>
            {busy ? "Saving…" : "Save thresholds"}
          </button>
        </div>
      </form>
    </section>
  );
}
