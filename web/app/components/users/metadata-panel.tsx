/**
 * The user's three metadata objects as JSON text editors: client (the user may change it),
 * client read-only (the user sees it) and server (only back ends see it). Invalid JSON is a
 * field error and nothing is saved.
 */

import type { ServerUser } from "@doorman/sdk";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { focusFirstError } from "../../lib/focus-first-error";
import { useAction } from "../console-ui";

type Kind = "clientMetadata" | "clientReadOnlyMetadata" | "serverMetadata";

const EDITORS: { kind: Kind; label: string; hint: string }[] = [
  { kind: "clientMetadata", label: "Client metadata", hint: "Readable and writable by the user's own app (the client)." },
  { kind: "clientReadOnlyMetadata", label: "Client read-only metadata", hint: "The user's app can read it but not change it." },
  { kind: "serverMetadata", label: "Server metadata", hint: "Only your back end (secret key) and this console see it." },
];

const pretty = (value: unknown) => JSON.stringify(value ?? null, null, 2);

/** The parsed value, or why the text is not valid metadata. */
function parseMetadata(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  if (!text.trim()) return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, error: `This is not valid JSON: ${e instanceof Error ? e.message : "it does not parse"}.` };
  }
}

export function MetadataPanel({
  user,
  onSave,
}: {
  user: ServerUser;
  onSave: (kind: Kind, value: unknown, label: string) => Promise<void>;
}) {
  const id = useId();
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Metadata</h2>
      <p className="muted">JSON values. Leave a field empty to clear it (null).</p>
      <div className="metadata-grid">
        {EDITORS.map((editor) => (
          <JsonEditor
            key={editor.kind}
            {...editor}
            value={user[editor.kind]}
            onSave={(value) => onSave(editor.kind, value, editor.label)}
          />
        ))}
      </div>
    </section>
  );
}

function JsonEditor(props: { label: string; hint: string; value: unknown; onSave: (value: unknown) => Promise<void> }) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const [text, setText] = useState(() => pretty(props.value));
  const { busy: pending, error, setError, run } = useAction();
  const saved = pretty(props.value);

  // A reload of the user (after another save) shows the stored value unless this one is being edited.
  const [lastSaved, setLastSaved] = useState(saved);
  useEffect(() => {
    if (saved !== lastSaved) {
      setText((current) => (current === lastSaved ? saved : current));
      setLastSaved(saved);
    }
  }, [saved, lastSaved]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseMetadata(text);
    if (!parsed.ok) {
      setError(parsed.error);
      return focusFirstError(form.current);
    }
    await run(
      async () => {
        await props.onSave(parsed.value);
        setText(pretty(parsed.value));
      },
      { fallback: "Could not save.", focus: form.current },
    );
  };

  return (
    <form ref={form} className="form metadata-editor" noValidate onSubmit={onSubmit}>
      <div className="field">
        <label htmlFor={`${id}-text`}>{props.label}</label>
        <textarea
          id={`${id}-text`}
          className="input code-input"
          rows={6}
          spellCheck={false}
          value={text}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-${error ? "error" : "hint"}`}
          onChange={(e) => {
            setText(e.target.value);
            setError(null);
          }}
        />
        {error ? (
          <p className="field-error" id={`${id}-error`}>
            {error}
          </p>
        ) : (
          <p className="muted field-hint" id={`${id}-hint`}>
            {props.hint}
          </p>
        )}
      </div>
      <div>
        <button type="submit" className="btn btn-small" disabled={pending || text === saved} aria-busy={pending}>
          {pending ? "Saving…" : `Save ${props.label.toLowerCase()}`}
        </button>
      </div>
    </form>
  );
}
