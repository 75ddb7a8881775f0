/**
 * Small building blocks shared by the console's pages: the page heading that takes focus after
 * navigation, a confirm button for destructive actions, toasts, and async action state.
 */
import { useLocation } from "@remix-run/react";
import { type InputHTMLAttributes, type ReactNode, type Ref, useCallback, useEffect, useId, useRef, useState } from "react";
import { focusFirstError } from "../lib/focus-first-error";
import { errorMessage } from "../lib/project-context";

/** The navigation whose heading already took focus: a heading re-mounted by a reload of the page's data must not steal it again. */
let focusedFor: string | null = null;

/** The page's h1: focused once after each navigation, so screen readers announce the page. */
export function PageHeading({ title, children }: { title: string; children?: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  const { key } = useLocation();
  useEffect(() => {
    if (focusedFor === key) return;
    focusedFor = key;
    ref.current?.focus({ preventScroll: false });
  }, [key]);
  return (
    <div className="page-heading">
      <h1 ref={ref} tabIndex={-1}>
        {title}
      </h1>
      {children}
    </div>
  );
}

/**
 * A button that asks before a destructive action and says what will be lost. Uses the native
 * <dialog> (focus trapped, Escape cancels).
 */
export function ConfirmButton(props: {
  label: string;
  /** Accessible name when the label alone is ambiguous (e.g. "Revoke key set prod"). */
  ariaLabel?: string;
  title: string;
  consequence: string;
  confirmLabel: string;
  onConfirm: () => Promise<void>;
  small?: boolean;
  /** Typed confirmation: the confirm button is enabled only when this text is typed. */
  typeToConfirm?: string;
  /** Disables the opening button (another action on the same thing is running). */
  disabled?: boolean;
  /** The dialog's dismiss button (default "Cancel"; say "Keep it" when the action itself is a cancel). */
  dismissLabel?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const { busy, error, setError, run } = useAction();
  const [typed, setTyped] = useState("");
  const titleId = useId();
  const inputId = useId();
  const open = () => {
    setError(null);
    setTyped("");
    dialog.current?.showModal();
  };
  const confirm = () =>
    run(async () => {
      await props.onConfirm();
      dialog.current?.close();
    });
  const blocked = props.typeToConfirm !== undefined && typed !== props.typeToConfirm;
  return (
    <>
      <button
        type="button"
        className={`btn btn-danger${props.small ? " btn-small" : ""}`}
        aria-label={props.ariaLabel}
        onClick={open}
        disabled={props.disabled}
      >
        {props.label}
      </button>
      <dialog ref={dialog} className="confirm-dialog" aria-labelledby={titleId}>
        <h2 id={titleId}>{props.title}</h2>
        <p>{props.consequence}</p>
        {props.typeToConfirm !== undefined ? (
          <div className="field">
            <label htmlFor={inputId}>
              Type <strong>{props.typeToConfirm}</strong> to confirm
            </label>
            <input id={inputId} className="input" value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />
          </div>
        ) : null}
        {error ? (
          <p className="alert" role="alert">
            {error}
          </p>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={() => dialog.current?.close()} disabled={busy}>
            {props.dismissLabel ?? "Cancel"}
          </button>
          <button type="button" className="btn btn-danger" onClick={confirm} disabled={busy || blocked} aria-busy={busy}>
            {busy ? "Working…" : props.confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  );
}

/** The console's toasts: one polite live region, messages fade after a few seconds. */
export function useToasts(): { toasts: ReactNode; toast: (message: string) => void } {
  const [messages, setMessages] = useState<{ id: number; text: string }[]>([]);
  const next = useRef(0);
  const toast = useCallback((text: string) => {
    const id = ++next.current;
    setMessages((m) => [...m, { id, text }]);
    setTimeout(() => setMessages((m) => m.filter((x) => x.id !== id)), 5000);
  }, []);
  const toasts = (
    <div className="toasts" role="status" aria-live="polite">
      {messages.map((m) => (
        <p key={m.id} className="toast">
          {m.text}
        </p>
      ))}
    </div>
  );
  return { toasts, toast };
}

/** How `useAction().run` reports a failure. */
export type ActionOptions = {
  /** The message when the error has none (default "That did not work. Try again."). */
  fallback?: string;
  /** The message shown for an error (default: its message, else the fallback); null shows none (e.g. the caller set field errors). */
  message?: (error: unknown, fallback: string) => string | null;
  /** After a failure, focus this form's first invalid field or its alert (focusFirstError). */
  focus?: HTMLFormElement | null;
  /** Which of the caller's actions runs (`running` names it while it runs), when one form has several. */
  name?: string;
};

/**
 * The console's one submit-state hook: runs an async action with busy and error state. `run`
 * clears the error, sets `busy` (and `running` to the action's name) until the action settles, and
 * answers whether it succeeded; a failure's message goes to `error` (the caller renders it with
 * role="alert"). Pass a fallback message, or options to map errors or focus the form's first error.
 */
export function useAction() {
  const [running, setRunning] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(async (action: () => Promise<void>, options: string | ActionOptions = {}): Promise<boolean> => {
    const {
      fallback = "That did not work. Try again.",
      message,
      focus,
      name = "action",
    } = typeof options === "string" ? { fallback: options } : options;
    setRunning(name);
    setError(null);
    try {
      await action();
      return true;
    } catch (e) {
      setError(message ? message(e, fallback) : errorMessage(e, fallback));
      if (focus !== undefined) focusFirstError(focus);
      return false;
    } finally {
      setRunning(null);
    }
  }, []);
  return { busy: running !== null, running, error, setError, run };
}

/**
 * An error that assistive tech announces as it appears (nothing when there is none). With `focus`,
 * it also takes focus when it appears (a failed save), so the person hears and reads it first.
 */
export function Alert({ message, focus = false }: { message: string | null | undefined; focus?: boolean }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (focus && message) ref.current?.focus();
  }, [focus, message]);
  if (!message) return null;
  return (
    <p className="alert" role="alert" tabIndex={focus ? -1 : undefined} ref={ref}>
      {message}
    </p>
  );
}

/** "Loading…" while null, the error if any, else the children. */
export function Loaded<T>(props: { value: T | null; error?: string | null; children: (value: T) => ReactNode; what?: string }) {
  if (props.error)
    return (
      <p className="alert" role="alert">
        {props.error}
      </p>
    );
  if (props.value === null)
    return (
      <p className="muted" role="status">
        Loading {props.what ?? ""}…
      </p>
    );
  return <>{props.children(props.value)}</>;
}

/**
 * A labelled text input with an optional hint and field error, wired for assistive tech:
 * aria-invalid while there is an error, aria-describedby naming the hint and the error.
 */
export function TextField({
  id,
  label,
  error,
  hint,
  hintClassName = "muted",
  inputRef,
  ...input
}: {
  id: string;
  label: ReactNode;
  error?: string | null;
  hint?: ReactNode;
  hintClassName?: string;
  inputRef?: Ref<HTMLInputElement>;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "id">) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input ref={inputRef} id={id} className="input" aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      {hint ? (
        <p className={hintClassName} id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
