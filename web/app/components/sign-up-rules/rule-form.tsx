/**
 * Add or edit one sign-up rule: id (new rules only), name, CEL condition, action, priority and on/off.
 * The form's own checks and the API's refusal (a bad condition comes back with the CEL reason) show
 * on the field they are about, with aria-invalid; anything else above the buttons.
 */
import type { SignUpRuleActionType } from "@doorman/sdk";
import { type FormEvent, useId, useRef, useState } from "react";
import { useProject } from "../../lib/project-context";
import { configErrorMessage } from "../config/api-error";
import { Alert, TextField, useAction } from "../console-ui";
import {
  ACTIONS,
  emptyForm,
  type RuleForm as Form,
  formOf,
  placeRuleError,
  type RuleEntry,
  type RuleErrors,
  ruleOverride,
  ruleProblems,
} from "./rules-config";

export function RuleForm(props: {
  /** The rule being edited; absent: a new rule. */
  editing?: RuleEntry;
  existingIds: string[];
  onSaved: (id: string) => Promise<void>;
  onCancel?: () => void;
}) {
  const base = useId();
  const { project } = useProject();
  const [form, setForm] = useState<Form>(props.editing ? formOf(props.editing) : emptyForm());
  const [errors, setErrors] = useState<RuleErrors>({});
  const { busy, error, setError, run } = useAction();
  const formRef = useRef<HTMLFormElement>(null);
  const isNew = !props.editing;
  const set = (patch: Partial<Form>) => setForm((f) => ({ ...f, ...patch }));
  const fieldId = (name: string) => `${base}-${name}`;
  const focusField = (name: keyof RuleErrors) => setTimeout(() => document.getElementById(fieldId(name))?.focus());

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = ruleProblems(form, props.existingIds, isNew);
    setErrors(found);
    const first = (["id", "displayName", "condition", "priority"] as const).find((k) => found[k]);
    if (first) return void focusField(first);
    await run(
      async () => {
        try {
          await project.updateConfig(ruleOverride(form, props.editing?.message), "environment");
        } catch (e) {
          const placed = placeRuleError(configErrorMessage(e, "Could not save the rule."));
          if (placed.field) {
            setErrors({ [placed.field]: placed.message });
            focusField(placed.field);
            setError(null);
            throw new FieldError();
          }
          throw new Error(placed.message);
        }
        await props.onSaved(form.id.trim());
        if (isNew) setForm(emptyForm());
      },
      {
        fallback: "Could not save the rule.",
        message: (e, fallback) => (e instanceof FieldError ? null : e instanceof Error ? e.message : fallback),
      },
    );
  };

  const actionHint = ACTIONS.find((a) => a.value === form.action)?.hint;
  return (
    <form
      ref={formRef}
      className="form"
      noValidate
      onSubmit={onSubmit}
      aria-label={isNew ? "New sign-up rule" : `Edit rule ${props.editing?.id}`}
    >
      {isNew ? (
        <TextField
          id={fieldId("id")}
          label="Rule id"
          autoComplete="off"
          placeholder="block-disposable"
          hint="Letters, digits, _ and -. Equal priorities run in id order."
          value={form.id}
          error={errors.id}
          onChange={(e) => set({ id: e.target.value })}
        />
      ) : null}
      <TextField
        id={fieldId("displayName")}
        label="Name"
        autoComplete="off"
        placeholder="Block throwaway addresses"
        value={form.displayName}
        error={errors.displayName}
        onChange={(e) => set({ displayName: e.target.value })}
      />
      <div className="field">
        <label htmlFor={fieldId("condition")}>Condition (CEL)</label>
        <textarea
          id={fieldId("condition")}
          className="input code-input"
          rows={2}
          spellCheck={false}
          autoComplete="off"
          placeholder='emailDomainDisposable || countryCode in ["KP"]'
          value={form.condition}
          aria-invalid={errors.condition ? true : undefined}
          aria-describedby={`${fieldId("condition")}-hint${errors.condition ? ` ${fieldId("condition")}-error` : ""}`}
          onChange={(e) => set({ condition: e.target.value })}
        />
        <p className="muted" id={`${fieldId("condition")}-hint`}>
          Variables: <code>email</code>, <code>emailDomain</code>, <code>emailDomainDisposable</code>, <code>countryCode</code>,{" "}
          <code>authMethod</code> (password, otp, oauth, passkey), <code>oauthProvider</code>, <code>riskScores.bot</code>,{" "}
          <code>riskScores.free_trial_abuse</code>.
        </p>
        {errors.condition ? (
          <p className="field-error" id={`${fieldId("condition")}-error`}>
            {errors.condition}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={fieldId("action")}>Action</label>
        <select
          id={fieldId("action")}
          className="input"
          value={form.action}
          aria-describedby={`${fieldId("action")}-hint`}
          onChange={(e) => set({ action: e.target.value as SignUpRuleActionType })}
        >
          {ACTIONS.map((a) => (
            <option key={a.value} value={a.value}>
              {a.label}
            </option>
          ))}
        </select>
        <p className="muted" id={`${fieldId("action")}-hint`}>
          {actionHint}
        </p>
      </div>
      <TextField
        id={fieldId("priority")}
        label="Priority"
        inputMode="numeric"
        autoComplete="off"
        hint="Higher runs first."
        value={form.priority}
        error={errors.priority}
        onChange={(e) => set({ priority: e.target.value })}
      />
      <div className="config-toggle">
        <input id={fieldId("enabled")} type="checkbox" checked={form.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
        <div className="config-toggle-text">
          <label htmlFor={fieldId("enabled")}>Enabled</label>
        </div>
      </div>
      <Alert message={error} focus />
      <div className="form-actions">
        <button type="submit" className="btn" disabled={busy} aria-busy={busy}>
          {busy ? "Saving…" : isNew ? "Add rule" : "Save rule"}
        </button>
        {props.onCancel ? (
          <button type="button" className="btn btn-secondary" onClick={props.onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

/** A refusal already shown on its field. */
class FieldError extends Error {}
