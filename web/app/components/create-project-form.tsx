/**
 * The "new project" form: a display name (per-field error, aria-invalid), then
 * `user.createProject` and a first key set through the new project's admin app.
 */
import { type FormEvent, useId, useState } from "react";
import type { CreatedProject, FirstViewKeys, OwnerUser } from "../lib/dashboard-types";
import { Alert, useAction } from "./console-ui";

const NAME_MAX = 256;
const KEY_LIFETIME_MS = 100 * 365 * 24 * 3600 * 1000; // effectively "never expires"

export type Created = { project: CreatedProject; keys: FirstViewKeys };

export function CreateProjectForm({ user, onCreated }: { user: OwnerUser; onCreated: (created: Created) => void }) {
  const id = useId();
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string | null>(null);
  const { busy: pending, error: formError, setError: setFormError, run } = useAction();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const displayName = name.trim();
    const problem = !displayName
      ? "Please enter a project name."
      : displayName.length > NAME_MAX
        ? `At most ${NAME_MAX} characters.`
        : null;
    setNameError(problem);
    setFormError(null);
    if (problem) return;
    await run(async () => {
      const project = await user.createProject({ displayName });
      const keys = await project.app.createInternalApiKey({
        description: "Default key set (created with the project)",
        expiresAt: new Date(Date.now() + KEY_LIFETIME_MS),
        hasPublishableClientKey: true,
        hasSecretServerKey: true,
        hasSuperSecretAdminKey: true,
      });
      setName("");
      onCreated({ project, keys });
    }, "Could not create the project.");
  };

  return (
    <form className="panel form" noValidate onSubmit={onSubmit} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Create a project</h2>
      <Alert message={formError} />
      <div className="field">
        <label htmlFor={`${id}-name`}>Project name</label>
        <div className="inline">
          <input
            id={`${id}-name`}
            name="displayName"
            className="input"
            value={name}
            placeholder="My app"
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? `${id}-name-error` : undefined}
            onChange={(e) => {
              setName(e.target.value);
              setNameError(null);
            }}
          />
          <button type="submit" className="btn" disabled={pending}>
            {pending ? "Creating…" : "Create project"}
          </button>
        </div>
        {nameError ? (
          <p className="field-error" id={`${id}-name-error`}>
            {nameError}
          </p>
        ) : null}
      </div>
    </form>
  );
}
