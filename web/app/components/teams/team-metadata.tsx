/**
 * The team's metadata as three JSON editors (client, client read-only, server), checked before
 * saving: an invalid one is a field error and takes focus. An empty editor saves null.
 */
import { type FormEvent, useId, useRef, useState } from "react";
import { Alert, useAction } from "../console-ui";

export type Metadata = { clientMetadata: unknown; clientReadOnlyMetadata: unknown; serverMetadata: unknown };
type Key = keyof Metadata;

const FIELDS: { key: Key; label: string; hint: string }[] = [
  { key: "clientMetadata", label: "Client metadata", hint: "Readable and writable by the team's members in your app." },
  { key: "clientReadOnlyMetadata", label: "Client read-only metadata", hint: "Readable in your app; only your server can change it." },
  { key: "serverMetadata", label: "Server metadata", hint: "Only your server can read or change it." },
];

const show = (value: unknown) => (value === null || value === undefined ? "" : JSON.stringify(value, null, 2));

function parse(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  if (!text.trim()) return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, problem: `Not valid JSON: ${e instanceof Error ? e.message : "check the syntax"}.` };
  }
}

export function TeamMetadata({ value, onSave }: { value: Metadata; onSave(metadata: Metadata): Promise<void> }) {
  const id = useId();
  const [texts, setTexts] = useState<Record<Key, string>>({
    clientMetadata: show(value.clientMetadata),
    clientReadOnlyMetadata: show(value.clientReadOnlyMetadata),
    serverMetadata: show(value.serverMetadata),
  });
  const [errors, setErrors] = useState<Partial<Record<Key, string>>>({});
  const refs = useRef<Partial<Record<Key, HTMLTextAreaElement | null>>>({});
  const { busy, error, run } = useAction();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const next: Partial<Record<Key, string>> = {};
    const parsed = {} as Metadata;
    for (const { key } of FIELDS) {
      const result = parse(texts[key]);
      if (result.ok) parsed[key] = result.value;
      else next[key] = result.problem;
    }
    setErrors(next);
    const first = FIELDS.find((f) => next[f.key]);
    if (first) return refs.current[first.key]?.focus();
    await run(() => onSave(parsed), "Could not save the metadata.");
  };

  return (
    <form className="panel form" noValidate onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Metadata</h2>
      <p className="muted team-hint">JSON values. Leave an editor empty for none.</p>
      <Alert message={error} />
      {FIELDS.map(({ key, label, hint }) => (
        <div className="field" key={key}>
          <label htmlFor={`${id}-${key}`}>{label}</label>
          <textarea
            ref={(el) => {
              refs.current[key] = el;
            }}
            id={`${id}-${key}`}
            className="input json-editor"
            rows={4}
            spellCheck={false}
            value={texts[key]}
            aria-invalid={errors[key] ? true : undefined}
            aria-describedby={`${id}-${key}-hint${errors[key] ? ` ${id}-${key}-error` : ""}`}
            onChange={(e) => setTexts((t) => ({ ...t, [key]: e.target.value }))}
          />
          <p className="muted team-hint" id={`${id}-${key}-hint`}>
            {hint}
          </p>
          {errors[key] ? (
            <p className="field-error" id={`${id}-${key}-error`}>
              {errors[key]}
            </p>
          ) : null}
        </div>
      ))}
      <div>
        <button type="submit" className="btn" disabled={busy} aria-busy={busy}>
          {busy ? "Saving…" : "Save metadata"}
        </button>
      </div>
    </form>
  );
}
