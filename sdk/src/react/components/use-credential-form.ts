/**
 * Shared state for the password forms: values, per-field errors, the pending flag and
 * a submit helper that validates first, calls the SDK, and maps errors onto fields.
 */
import { type FormEvent, useState } from "react";
import type { CredentialResult } from "../app-types";
import { useTranslation } from "../i18n/context";
import { errorsFromResult, type FormErrors, hasErrors } from "./credential-errors";

export type CredentialValues = { email: string; password: string; passwordRepeat: string };

export function useCredentialForm(
  validate: (values: CredentialValues) => FormErrors,
  send: (values: CredentialValues) => Promise<CredentialResult>,
) {
  const { t } = useTranslation();
  const [values, setValues] = useState<CredentialValues>({ email: "", password: "", passwordRepeat: "" });
  const [errors, setErrors] = useState<FormErrors>({});
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState(false);

  const setValue = (field: keyof CredentialValues) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((old) => ({ ...old, [field]: value }));
    // Editing a field clears its own error and the form-level one.
    setErrors((old) => ({ ...old, [field]: undefined, form: undefined }));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const form = event.currentTarget;
    const found = validate(values);
    setErrors(found);
    if (hasErrors(found)) {
      focusFirstInvalid(form);
      return;
    }
    setPending(true);
    try {
      const result = await send({ ...values, email: values.email.trim() });
      if (result.status === "ok") {
        setDone(true); // the SDK is redirecting now
        return;
      }
      setErrors(errorsFromResult(result.error, t));
    } catch (error) {
      setErrors(errorsFromResult(error, t));
    }
    setPending(false);
    focusFirstInvalid(form);
  };

  return { values, errors, pending, done, setValue, onSubmit };
}

/** After React has rendered the errors, moves focus to the first invalid input. */
function focusFirstInvalid(form: HTMLFormElement): void {
  requestAnimationFrame(() => form.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus());
}
