/**
 * Loads one piece of a users page through the SDK: the value (null while loading), the error,
 * and a reload that keeps the old value on screen until the new one arrives.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { errorMessage } from "../../lib/project-context";

export type Loaded<T> = { value: T | null; error: string | null; reload: () => Promise<void> };

/** `load` must be stable (useCallback); a newer load wins over an older one still in flight. */
export function useLoad<T>(load: () => Promise<T>, what: string): Loaded<T> {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(0);
  const reload = useCallback(async () => {
    const run = ++latest.current;
    try {
      const next = await load();
      if (run === latest.current) {
        setValue(next);
        setError(null);
      }
    } catch (e) {
      if (run === latest.current) setError(errorMessage(e, `Could not load ${what}.`));
    }
  }, [load, what]);
  useEffect(() => {
    setValue(null);
    reload();
    return () => {
      latest.current++;
    };
  }, [reload]);
  return { value, error, reload };
}

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

/** A date as the console shows it (the browser's locale, minutes precision). */
export function formatDate(date: Date | null): string {
  return date ? date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : "—";
}
