/**
 * The "Create a team" form of the Teams page: a display name and, optionally, the user who
 * creates it, picked by searching the project's users (that user joins with the project's
 * team-creator permissions).
 */

import { KnownError, type ServerTeam, type ServerUser } from "@doorman/sdk";
import { type FormEvent, useId, useRef, useState } from "react";
import type { OwnedProject } from "../../lib/dashboard-types";
import { Alert, TextField, useAction } from "../console-ui";
import { UserCombobox } from "../users/user-combobox";
import { teamNameProblem } from "./team-fields";

export function CreateTeamForm({
  project,
  onCreate,
}: {
  project: OwnedProject;
  onCreate: (options: { displayName: string; creatorUserId?: string }) => Promise<ServerTeam>;
}) {
  const id = useId();
  const [name, setName] = useState("");
  const [creator, setCreator] = useState<ServerUser | null>(null);
  const [errors, setErrors] = useState<{ name?: string; creator?: string }>({});
  const nameRef = useRef<HTMLInputElement>(null);
  const creatorRef = useRef<HTMLInputElement>(null);
  const { busy, error, run } = useAction();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const next = { name: teamNameProblem(name) ?? undefined };
    setErrors(next);
    if (next.name) return nameRef.current?.focus();
    let creatorMissing = false;
    const ok = await run(async () => {
      try {
        await onCreate({ displayName: name.trim(), creatorUserId: creator?.id });
      } catch (e) {
        if (e instanceof KnownError && e.code === "USER_ID_DOES_NOT_EXIST") {
          creatorMissing = true;
          return;
        }
        throw e;
      }
    }, "Could not create the team.");
    if (creatorMissing) {
      setErrors({ creator: "This user no longer exists; pick another." });
      setCreator(null);
    } else if (ok) {
      setName("");
      setCreator(null);
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
      <UserCombobox
        project={project}
        label="Creator (optional)"
        hint="Search by email, name or id. This user joins the team with the team-creator permissions."
        value={creator}
        onChange={(user) => {
          setCreator(user);
          setErrors((e) => ({ ...e, creator: undefined }));
        }}
        inputRef={creatorRef}
        error={errors.creator}
      />
      <div>
        <button type="submit" className="btn" disabled={busy} aria-busy={busy}>
          {busy ? "Creating…" : "Create team"}
        </button>
      </div>
    </form>
  );
}
