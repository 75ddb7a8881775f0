/**
 * The "New template / theme / draft" panel of the email list pages: a name, checked before the
 * call (focus goes to it when empty), progress while creating, and the API's error if it fails.
 * `onCreate` creates the item and moves on (a toast, the editor page).
 */
import { type FormEvent, type ReactNode, useId, useRef, useState } from "react";
import { Alert, TextField, useAction } from "../console-ui";

export function CreateByNameForm({
  noun,
  hint,
  onCreate,
}: {
  noun: "template" | "theme" | "draft";
  hint?: ReactNode;
  onCreate: (name: string) => Promise<void>;
}) {
  const id = useId();
  const create = useAction();
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const Noun = noun[0]!.toUpperCase() + noun.slice(1);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) {
      setNameError(`Name the ${noun}.`);
      nameRef.current?.focus();
      return;
    }
    setNameError(null);
    await create.run(() => onCreate(name.trim()), `Could not create the ${noun}.`);
  };

  return (
    <section className="panel">
      <form className="form" onSubmit={onSubmit} aria-labelledby={`${id}-new`} noValidate>
        <h2 id={`${id}-new`}>New {noun}</h2>
        <TextField
          id={`${id}-name`}
          label={`${Noun} name`}
          hint={hint}
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={nameError}
          inputRef={nameRef}
          maxLength={256}
        />
        <Alert message={create.error} />
        <div>
          <button type="submit" className="btn" disabled={create.busy}>
            {create.busy ? "Creating…" : `Create ${noun}`}
          </button>
        </div>
      </form>
    </section>
  );
}
