/**
 * Loads one piece of a console page through the SDK: the value (null while loading), the error,
 * and a reload that keeps the old value on screen until the new one arrives.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { errorMessage } from "./project-context";

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
