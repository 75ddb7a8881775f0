/** The project's display name and description (Settings page). */
import { type FormEvent, useId, useRef, useState } from "react";
import { Alert } from "../console-ui";
import { useConfigSave } from "./use-config-save";

export function ProjectDetailsForm({ displayName, description }: { displayName: string; description: string }) {
  const formId = useId();
  const { saving, errors, save } = useConfigSave();
  const [name, setName] = useState(displayName);
  const [text, setText] = useState(description);
  const [nameError, setNameError] = useState<string | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    const trimmed = name.trim();
    setNameError(trimmed ? null : "Enter a name for the project.");
    if (!trimmed) return nameRef.current?.focus();
    await save("details", { displayName: trimmed, description: text.trim() }, "Project details saved.");
  };

  return (
    <form className="panel form" noValidate onSubmit={onSubmit} aria-labelledby={`${formId}-heading`}>
      <h2 id={`${formId}-heading`}>Project details</h2>
      <Alert message={errors.details} focus />
      <div className="field">
        <label htmlFor={`${formId}-name`}>Display name</label>
        <input
          id={`${formId}-name`}
          ref={nameRef}
          className="input"
          value={name}
          maxLength={256}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={`${formId}-name-hint${nameError ? ` ${formId}-name-error` : ""}`}
          onChange={(e) => setName(e.target.value)}
        />
        <span className="muted" id={`${formId}-name-hint`}>
          Your users see it on the sign-in pages and in emails.
        </span>
        {nameError ? (
          <p className="field-error" id={`${formId}-name-error`}>
            {nameError}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={`${formId}-description`}>Description</label>
        <textarea
          id={`${formId}-description`}
          className="input"
          rows={3}
          value={text}
          maxLength={4096}
          onChange={(e) => setText(e.target.value)}
        />
      </div>
      <div className="form-actions">
        <button type="submit" className="btn" disabled={saving !== null} aria-busy={saving === "details"}>
          {saving === "details" ? "Saving…" : "Save details"}
        </button>
      </div>
    </form>
  );
}
