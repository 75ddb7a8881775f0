/**
 * The "Create a team" form of the Teams page: a display name and, optionally, the user who
 * creates it (that user joins with the project's team-creator permissions).
 */

import { KnownError, type ServerTeam } from "@doorman/sdk";
import { type FormEvent, useId, useRef, useState } from "react";
import { Alert, TextField, useAction } from "../console-ui";
import { teamNameProblem, userIdProblem } from "./team-fields";

export function CreateTeamForm({
  onCreate,
}: {
  onCreate: (options: { displayName: string; creatorUserId?: string }) => Promise<ServerTeam>;
}) {
  const id = useId();
  const [name, setName] = useState("");
  const [creator, setCreator] = useState("");
  const [errors, setErrors] = useState<{ name?: string; creator?: string }>({});
  const nameRef = useRef<HTMLInputElement>(null);
  const creatorRef = useRef<HTMLInputElement>(null);
  const { busy, error, run } = useAction();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const next = { name: teamNameProblem(name) ?? undefined, creator: userIdProblem(creator, true) ?? undefined };
    setErrors(next);
    if (next.name) return nameRef.current?.focus();
    if (next.creator) return creatorRef.current?.focus();
    let creatorMissing = false;
    const ok = await run(async () => {
      try {
        await onCreate({ displayName: name.trim(), creatorUserId: creator.trim() || undefined });
      } catch (e) {
        if (e instanceof KnownError && e.code === "USER_ID_DOES_NOT_EXIST") {
          creatorMissing = true;
          return;
        }
        throw e;
      }
    }, "Could not create the team.");
    if (creatorMissing) {
      setErrors({ creator: "No user of this project has this id." });
      creatorRef.current?.focus();
    } else if (ok) {
      setName("");
      setCreator("");
    }
  };

  return (
    <form className="panel form" noValidate onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Create a team</h2>
      <Alert message={error} />
      <TextField
        id={`${id}-name`}
        label="Display name"
        inputRef={nameRef}
        value={name}
        maxLength={256}
        error={errors.name}
        onChange={(e) => setName(e.target.value)}
      />
      <TextField
        id={`${id}-creator`}
        label="Creator user id (optional)"
        inputRef={creatorRef}
        value={creator}
        autoComplete="off"
        spellCheck={false}
        hint="This user joins the team with the team-creator permissions."
        hintClassName="muted team-hint"
        error={errors.creator}
        onChange={(e) => setCreator(e.target.value)}
      />
      <div>
        <button type="submit" className="btn" disabled={busy} aria-busy={busy}>
          {busy ? "Creating…" : "Create team"}
        </button>
      </div>
    </form>
  );
}
