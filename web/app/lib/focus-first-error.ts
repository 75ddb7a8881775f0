/**
 * After a failed submit: once React has rendered the errors, focus the form's first invalid
 * control, or else its alert (give alerts tabIndex={-1}).
 */
export function focusFirstError(form: HTMLFormElement | null): void {
  setTimeout(() => {
    const first = form?.querySelector<HTMLElement>('[aria-invalid="true"]');
    (first ?? form?.querySelector<HTMLElement>('[role="alert"]'))?.focus();
  }, 0);
}
