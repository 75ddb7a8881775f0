/**
 * The save row of the template, theme and draft editors: the failure (an alert that takes focus),
 * the Save button with progress, and whether there are unsaved changes.
 */
import { Alert } from "../console-ui";

export function SaveBar(props: {
  noun: "template" | "theme" | "draft";
  error: string | null;
  busy: boolean;
  dirty: boolean;
  /** Without it the button submits its form (the theme editor saves on submit). */
  onSave?: () => void;
}) {
  return (
    <>
      <Alert message={props.error ? `Not saved: ${props.error}` : null} focus />
      <div className="inline">
        <button type={props.onSave ? "button" : "submit"} className="btn" onClick={props.onSave} disabled={props.busy}>
          {props.busy ? "Saving…" : `Save ${props.noun}`}
        </button>
        <span className="muted" role="status">
          {props.dirty ? "Unsaved changes." : "All changes saved."}
        </span>
      </div>
    </>
  );
}
