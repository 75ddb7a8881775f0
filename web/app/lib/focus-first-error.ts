/** Field errors by the id of the control in error, in page order. */
export type FieldErrors = Record<string, string>;

/**
 * After a failed submit, once React has rendered the errors (one task later, so the error text is
 * there and described when focus lands):
 * - given a form: focus its first invalid control (aria-invalid="true"), or else its alert (give
 *   alerts tabIndex={-1});
 * - given field errors keyed by control id: focus the control of the first error.
 */
export function focusFirstError(target: HTMLFormElement | FieldErrors | null, doc: Pick<Document, "getElementById"> | null = null): void {
  setTimeout(() => {
    if (target === null) return;
    if (isForm(target)) {
      const first = target.querySelector<HTMLElement>('[aria-invalid="true"]');
      (first ?? target.querySelector<HTMLElement>('[role="alert"]'))?.focus();
      return;
    }
    const id = Object.keys(target)[0];
    if (id) (doc ?? document).getElementById(id)?.focus();
  }, 0);
}

function isForm(target: HTMLFormElement | FieldErrors): target is HTMLFormElement {
  return typeof (target as HTMLFormElement).querySelector === "function";
}
