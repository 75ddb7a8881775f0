/**
 * The Payments page's config entries (items, offers): one panel lists the entries of a kind with
 * Edit and Delete (deleting asks first), "New …" opens the editor below the table; one form frame
 * gives every editor its heading, its failure alert and its Save / Cancel buttons, and one hook
 * runs its submit (field errors focus the first one; the save's failure is announced).
 */
import { type FormEvent, type ReactNode, useState } from "react";
import { type FieldErrors, focusFirstError } from "../../lib/focus-first-error";
import { Alert, ConfirmButton, useAction } from "../console-ui";
import { DataTable } from "../data-table";

/** What the panel hands its editor: the entry being edited (null ids for a new one) and how to finish. */
export type EntryEditor<T> = {
  /** The id of the entry being edited, or null for a new one. */
  entryId: string | null;
  initial: T | null;
  takenIds: string[];
  /** Saves the entry (the panel closes the editor once the save worked). */
  onSaved: (save: (created: boolean) => Promise<void>) => Promise<void>;
  onCancel: () => void;
};

export function ConfigEntriesPanel<T>(props: {
  /** The prefix of the panel's ids ("payments-items"). */
  id: string;
  title: string;
  /** The entry's noun in buttons and names ("item": "New item", "Edit item credits"). */
  noun: string;
  intro: ReactNode;
  entries: Record<string, T>;
  empty: string;
  /** The columns after Id (its header and its cell). */
  columns: { header: string; cell: (id: string, entry: T) => ReactNode }[];
  /** Extra content of the Id cell (e.g. the offer's group). */
  idExtra?: (id: string, entry: T) => ReactNode;
  /** What deleting the entry does, as the confirmation says it. */
  deleteConsequence: (id: string, entry: T) => string;
  onDelete: (id: string) => Promise<void>;
  editor: (editor: EntryEditor<T>) => ReactNode;
  /** More buttons of a row, before Edit (e.g. an offer's test checkout). */
  rowActions?: (id: string, entry: T) => ReactNode;
  /** Shown at the end of the panel, below the editor (e.g. the test checkout). */
  footer?: ReactNode;
}) {
  const [editing, setEditing] = useState<string | "new" | null>(null);
  const { noun } = props;
  const entries = Object.entries(props.entries);
  return (
    <section className="panel" aria-labelledby={`${props.id}-title`}>
      <div className="panel-heading">
        <h2 id={`${props.id}-title`}>{props.title}</h2>
        {editing === null ? (
          <button type="button" className="btn btn-small" onClick={() => setEditing("new")}>
            New {noun}
          </button>
        ) : null}
      </div>
      <p className="muted">{props.intro}</p>
      <DataTable isEmpty={entries.length === 0} empty={props.empty} className="payments-table">
        <thead>
          <tr>
            <th scope="col">Id</th>
            {props.columns.map((c) => (
              <th key={c.header} scope="col">
                {c.header}
              </th>
            ))}
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map(([id, entry]) => (
            <tr key={id}>
              <td>
                <code>{id}</code>
                {props.idExtra?.(id, entry)}
              </td>
              {props.columns.map((c) => (
                <td key={c.header}>{c.cell(id, entry)}</td>
              ))}
              <td>
                <div className="payments-actions">
                  {props.rowActions?.(id, entry)}
                  <button
                    type="button"
                    className="btn btn-secondary btn-small"
                    aria-label={`Edit ${noun} ${id}`}
                    onClick={() => setEditing(id)}
                  >
                    Edit
                  </button>
                  <ConfirmButton
                    small
                    label="Delete"
                    ariaLabel={`Delete ${noun} ${id}`}
                    title={`Delete ${noun} ${id}?`}
                    consequence={props.deleteConsequence(id, entry)}
                    confirmLabel={`Delete ${noun}`}
                    onConfirm={() => props.onDelete(id)}
                  />
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </DataTable>
      {editing !== null ? (
        <EditorSlot key={editing}>
          {props.editor({
            entryId: editing === "new" ? null : editing,
            initial: editing === "new" ? null : (props.entries[editing] ?? null),
            takenIds: Object.keys(props.entries),
            onCancel: () => setEditing(null),
            onSaved: async (save) => {
              await save(editing === "new");
              setEditing(null);
            },
          })}
        </EditorSlot>
      ) : null}
      {props.footer}
    </section>
  );
}

/** Keys the editor by the entry it edits, so switching entries starts a fresh form. */
function EditorSlot({ children }: { children: ReactNode }) {
  return <>{children}</>;
}

/** A config entry's form: submit state, field errors and the failure of the save. */
export function useEntryForm() {
  const [errors, setErrors] = useState<FieldErrors>({});
  const { busy, error: failure, setError: setFailure, run } = useAction();
  /** Shows `found` (focusing the first field in error), or saves when there is none. */
  const submit = async (found: FieldErrors, save: () => Promise<void>, fallback: string) => {
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) return focusFirstError(found);
    await run(save, fallback);
  };
  return { errors, busy, failure, submit };
}

/** The frame of a config entry's editor: heading, fields (children), failure alert, Save and Cancel. */
export function ConfigEntryForm(props: {
  noun: string;
  entryId: string | null;
  busy: boolean;
  failure: string | null;
  onSubmit: () => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  const { noun, busy } = props;
  const title = props.entryId !== null ? `Edit ${noun} ${props.entryId}` : `New ${noun}`;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onSubmit();
  };
  return (
    <form className="form payments-editor" onSubmit={submit} noValidate aria-label={title}>
      <h3>{title}</h3>
      {props.children}
      <Alert message={props.failure} focus />
      <div className="form-actions">
        <button type="submit" className="btn" disabled={busy} aria-busy={busy}>
          {busy ? "Saving…" : props.entryId !== null ? `Save ${noun}` : `Create ${noun}`}
        </button>
        <button type="button" className="btn btn-secondary" onClick={props.onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
