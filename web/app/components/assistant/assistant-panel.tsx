/**
 * The console assistant on every project page: the "Assistant" toggle (in the project navigation)
 * and the side panel it opens, over the page's right edge (full width on a phone), so the page
 * itself never moves. The panel's body, with the markdown renderer, is loaded the first time it
 * opens and then stays mounted, so a reply keeps streaming while the panel is closed.
 */
import { type KeyboardEvent, lazy, type RefObject, Suspense, useCallback, useRef, useState } from "react";
import type { OwnedProject } from "../../lib/dashboard-types";

const AssistantChat = lazy(() => import("./assistant-chat"));

const PANEL_ID = "assistant-panel";

export type AssistantToggleState = {
  open: boolean;
  /** Opened at least once: the body is loaded and kept. */
  started: boolean;
  toggleRef: RefObject<HTMLButtonElement>;
  toggle(): void;
  /** Closes the panel and gives focus back to the toggle. */
  close(): void;
};

export function useAssistantToggle(): AssistantToggleState {
  const [open, setOpen] = useState(false);
  const [started, setStarted] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const toggle = useCallback(() => {
    setStarted(true);
    setOpen((was) => !was);
  }, []);
  const close = useCallback(() => {
    setOpen(false);
    toggleRef.current?.focus();
  }, []);
  return { open, started, toggleRef, toggle, close };
}

export function AssistantToggle({ state }: { state: AssistantToggleState }) {
  return (
    <button
      ref={state.toggleRef}
      type="button"
      className="btn btn-secondary btn-small assistant-toggle"
      aria-expanded={state.open}
      aria-controls={PANEL_ID}
      onClick={state.toggle}
    >
      Assistant
    </button>
  );
}

export function AssistantPanel({ project, state }: { project: OwnedProject; state: AssistantToggleState }) {
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape") {
      event.stopPropagation();
      state.close();
    }
  };
  return (
    <aside id={PANEL_ID} className="assistant-panel" aria-labelledby="assistant-panel-heading" hidden={!state.open} onKeyDown={onKeyDown}>
      <div className="assistant-header">
        <h2 id="assistant-panel-heading" className="assistant-title">
          Assistant
        </h2>
        <button type="button" className="btn btn-secondary btn-small" onClick={state.close} aria-label="Close the assistant">
          Close
        </button>
      </div>
      {state.started ? (
        <Suspense
          fallback={
            <p className="muted" role="status">
              Loading the assistant…
            </p>
          }
        >
          <AssistantChat project={project} open={state.open} />
        </Suspense>
      ) : null}
    </aside>
  );
}
