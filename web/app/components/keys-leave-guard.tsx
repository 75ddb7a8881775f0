/**
 * The "keys shown once" panels' guard: until the owner ticks "I have copied these keys", leaving the
 * page asks first, both for the browser's own navigation (reload, close, another address: the
 * beforeunload prompt) and for the console's links (a Remix navigation blocker and a dialog).
 */
import { useBeforeUnload, useBlocker } from "@remix-run/react";
import { useCallback, useEffect, useId, useRef } from "react";

/** The checkbox that confirms the keys were copied (and so lifts the guard); `label` names what was copied. */
export function KeysCopiedCheckbox(props: { checked: boolean; onChange: (checked: boolean) => void; label?: string }) {
  const id = useId();
  return (
    <div className="field keys-copied">
      <label className="choice" htmlFor={id}>
        <input id={id} type="checkbox" checked={props.checked} onChange={(e) => props.onChange(e.target.checked)} />
        {props.label ?? "I have copied these keys"}
      </label>
    </div>
  );
}

/** While `active`, leaving the page asks first. Renders the console's dialog for in-app links (`title`/`body`: another secret than keys). */
export function KeysLeaveGuard({ active, title, body }: { active: boolean; title?: string; body?: string }) {
  useBeforeUnload(
    useCallback(
      (event: BeforeUnloadEvent) => {
        if (!active) return;
        // The browser shows its own "Leave site?" text; setting returnValue is what asks (older engines too).
        event.preventDefault();
        event.returnValue = "";
      },
      [active],
    ),
  );
  const blocker = useBlocker(({ currentLocation, nextLocation }) => active && currentLocation.pathname !== nextLocation.pathname);
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const blocked = blocker.state === "blocked";
  useEffect(() => {
    if (blocked && !dialog.current?.open) dialog.current?.showModal();
    if (!blocked && dialog.current?.open) dialog.current.close();
  }, [blocked]);
  // No longer guarded (the keys were confirmed) while a navigation waits: let it go.
  useEffect(() => {
    if (!active && blocker.state === "blocked") blocker.proceed();
  }, [active, blocker]);
  return (
    <dialog ref={dialog} className="confirm-dialog" aria-labelledby={titleId} onCancel={() => blocker.reset?.()}>
      <h2 id={titleId}>{title ?? "Leave without your keys?"}</h2>
      <p>
        {body ??
          "The secret keys are shown only once: Doorman keeps their hashes, not the keys. If you leave before copying them, you will need a new key set."}
      </p>
      <div className="dialog-actions">
        <button type="button" className="btn btn-secondary" onClick={() => blocker.reset?.()}>
          Stay and copy them
        </button>
        <button type="button" className="btn btn-danger" onClick={() => blocker.proceed?.()}>
          Leave anyway
        </button>
      </div>
    </dialog>
  );
}
