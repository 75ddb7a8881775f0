/**
 * The save row of the template, theme and draft editors: the failure (an alert the editor focuses),
 * the Save button with progress, and whether there are unsaved changes.
 */
import type { Ref } from "react";

export function SaveBar(props: {
  noun: "template" | "theme" | "draft";
  error: string | null;
  alertRef: Ref<HTMLParagraphElement>;
  busy: boolean;
  dirty: boolean;
  /** Without it the button submits its form (the theme editor saves on submit). */
  onSave?: () => void;
}) {
  return (
    <>
      {props.error ? (
        <p className="alert" role="alert" tabIndex={-1} ref={props.alertRef}>
          Not saved: {props.error}
        </p>
      ) : null}
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
