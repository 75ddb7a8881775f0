/** "Edit" on a permission definition: its description and the permissions it contains, in a dialog. */

import type { PermissionDefinition } from "@doorman/sdk";
import { useId, useRef, useState } from "react";
import { Alert, useAction } from "./console-ui";

export function PermissionEditButton(props: {
  definition: PermissionDefinition;
  /** The definitions of its scope it may contain (never itself). */
  candidates: PermissionDefinition[];
  onSave: (update: { description: string; containedPermissionIds: string[] }) => Promise<void>;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [description, setDescription] = useState(props.definition.description ?? "");
  const [contained, setContained] = useState<string[]>(props.definition.containedPermissionIds);
  const { busy, error, setError, run } = useAction();
  const id = useId();
  const open = () => {
    setDescription(props.definition.description ?? "");
    setContained(props.definition.containedPermissionIds);
    setError(null);
    dialog.current?.showModal();
  };
  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (await run(() => props.onSave({ description: description.trim(), containedPermissionIds: contained }))) dialog.current?.close();
  };
  return (
    <>
      <button type="button" className="btn btn-secondary btn-small" onClick={open} aria-label={`Edit ${props.definition.id}`}>
        Edit
      </button>
      <dialog ref={dialog} className="confirm-dialog" aria-labelledby={`${id}-title`}>
        <form onSubmit={onSubmit} className="form">
          <h2 id={`${id}-title`}>Edit {props.definition.id}</h2>
          <div className="field">
            <label htmlFor={`${id}-description`}>Description</label>
            <input
              id={`${id}-description`}
              className="input"
              value={description}
              maxLength={1024}
              onChange={(e) => setDescription(e.target.value)}
            />
          </div>
          <fieldset className="field permission-contains">
            <legend>Contains</legend>
            {props.candidates.length === 0 ? <p className="muted">Nothing else to contain yet.</p> : null}
            {props.candidates.map((d) => (
              <label key={d.id} className="permission-option">
                <input
                  type="checkbox"
                  checked={contained.includes(d.id)}
                  onChange={(e) => setContained((list) => (e.target.checked ? [...list, d.id] : list.filter((v) => v !== d.id)))}
                />{" "}
                <code>{d.id}</code>
              </label>
            ))}
          </fieldset>
          <Alert message={error} />
          <div className="dialog-actions">
            <button type="button" className="btn btn-secondary" onClick={() => dialog.current?.close()} disabled={busy}>
              Cancel
            </button>
            <button type="submit" className="btn" disabled={busy}>
              {busy ? "Saving…" : "Save changes"}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
