/**
 * Whether the worker keeps a dev inbox (development only), asked once per project and remembered
 * for the page's life: the Emails pages then show the inbox tab and the call to read it.
 */
import { useEffect, useState } from "react";
import type { OwnedProject } from "../../lib/dashboard-types";

const known = new Map<string, boolean>();

/** null while unknown; true on a development worker, false elsewhere (or if the check failed). */
export function useDevInboxAvailable(project: OwnedProject): boolean | null {
  const [available, setAvailable] = useState<boolean | null>(known.get(project.id) ?? null);
  useEffect(() => {
    if (known.has(project.id)) return;
    let live = true;
    project.app.listDevInbox({ to: "availability-check@doorman.invalid" }).then(
      (list) => {
        known.set(project.id, list !== null);
        if (live) setAvailable(list !== null);
      },
      () => {
        if (live) setAvailable(false);
      },
    );
    return () => {
      live = false;
    };
  }, [project]);
  return available;
}
