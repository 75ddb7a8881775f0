/**
 * A labelled form field with its error message wired for assistive tech:
 * `aria-invalid` on the input and `aria-describedby` pointing at the error or hint.
 */
import { type InputHTMLAttributes, useId } from "react";

export type FieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "className"> & {
  label: string;
  /** The field's error message; marks the input invalid when set. */
  error?: string | null;
  hint?: string;
};

/**
 * @example
 * <Field label="Email" name="email" type="email" error={errors.email} />
 */
export function Field({ label, error, hint, ...input }: FieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint && !error ? hintId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="stack-field">
      <label htmlFor={id}>{label}</label>
      <input {...input} id={id} className="stack-input" aria-invalid={error ? true : undefined} aria-describedby={describedBy} />
      {hint && !error ? (
        <p className="stack-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="stack-field-error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The alert shown above a form for errors that belong to no single field.
 *
 * @example
 * <FormAlert message={errors.form} />
 */
export function FormAlert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p className="stack-alert" role="alert">
      {message}
    </p>
  );
}
