/** The "Team name" form of a team's detail page. */
import { type FormEvent, useId, useRef, useState } from "react";
import { Alert, useAction } from "../console-ui";
import { teamNameProblem } from "./team-fields";

export function RenameTeamForm({ name, onRename }: { name: string; onRename(name: string): Promise<void> }) {
  const id = useId();
  const [value, setValue] = useState(name);
  const [problem, setProblem] = useState<string | null>(null);
  const ref = useRef<HTMLInputElement>(null);
  const { busy, error, run } = useAction();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const next = teamNameProblem(value);
    setProblem(next);
    if (next) return ref.current?.focus();
    if (value.trim() === name) return;
    await run(() => onRename(value.trim()), "Could not rename the team.");
  };

  return (
    <form className="panel form" noValidate onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Name</h2>
      <Alert message={error} />
      <div className="field">
        <label htmlFor={`${id}-name`}>Team name</label>
        <div className="team-inline">
          <input
            ref={ref}
            id={`${id}-name`}
            className="input"
            value={value}
            maxLength={256}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-name-error` : undefined}
            onChange={(e) => setValue(e.target.value)}
          />
          <button type="submit" className="btn" disabled={busy} aria-busy={busy}>
            {busy ? "Saving…" : "Rename team"}
          </button>
        </div>
        {problem ? (
          <p className="field-error" id={`${id}-name-error`}>
            {problem}
          </p>
        ) : null}
      </div>
    </form>
  );
}
