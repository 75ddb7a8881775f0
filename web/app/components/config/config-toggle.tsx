/**
 * One on/off setting of a config page: a labelled checkbox with its explanation, "Saving…" while
 * the change is stored, and the API's error right next to it.
 */
import { type ReactNode, useId } from "react";

export function ConfigToggle(props: {
  label: string;
  hint?: ReactNode;
  checked: boolean;
  saving: boolean;
  error?: string;
  /** Another control is saving: wait for it. */
  disabled?: boolean;
  onChange: (on: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="config-toggle">
      <input
        id={id}
        type="checkbox"
        checked={props.checked}
        disabled={props.saving || props.disabled}
        aria-describedby={`${id}-hint${props.error ? ` ${id}-error` : ""}`}
        aria-invalid={props.error ? true : undefined}
        onChange={(e) => props.onChange(e.target.checked)}
      />
      <div className="config-toggle-text">
        <label htmlFor={id}>{props.label}</label>
        <span id={`${id}-hint`} className="muted">
          {props.hint}
        </span>
        {props.saving ? (
          <span className="muted" role="status">
            Saving…
          </span>
        ) : null}
        {props.error ? (
          <p className="field-error" id={`${id}-error`} role="alert">
            {props.error}
          </p>
        ) : null}
      </div>
    </div>
  );
}
