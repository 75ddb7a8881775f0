/**
 * The "new permission" form of the permissions page: scope, id, description and the permissions
 * it contains (checkboxes over the scope's existing ones), with per-field errors.
 */

import type { PermissionDefinition } from "@doorman/sdk";
import { KnownError } from "@doorman/sdk";
import { type FormEvent, useId, useState } from "react";
import { errorMessage } from "../lib/project-context";
import { Alert, useAction } from "./console-ui";

export type Scope = "team" | "project";

const ID_PATTERN = /^[a-zA-Z0-9_:-]+$/;
const ID_MAX = 256;

export type NewDefinition = { scope: Scope; id: string; description?: string; containedPermissionIds: string[] };

type Props = {
  /** Existing definitions per scope: the ids a new one may contain. */
  existing: Record<Scope, PermissionDefinition[]>;
  onCreate: (definition: NewDefinition) => Promise<void>;
};

function idProblem(id: string): string | null {
  if (!id) return "Please enter an id.";
  if (id.length > ID_MAX) return `At most ${ID_MAX} characters.`;
  if (id.startsWith("$")) return "Ids starting with $ are reserved for system permissions.";
  if (!ID_PATTERN.test(id)) return 'Only letters, numbers, "_", ":" and "-".';
  return null;
}

export function PermissionDefinitionForm({ existing, onCreate }: Props) {
  const formId = useId();
  const [scope, setScope] = useState<Scope>("team");
  const [id, setId] = useState("");
  const [description, setDescription] = useState("");
  const [contained, setContained] = useState<string[]>([]);
  const [idError, setIdError] = useState<string | null>(null);
  const { busy: pending, error: formError, setError: setFormError, run } = useAction();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const trimmed = id.trim();
    const problem = idProblem(trimmed);
    setIdError(problem);
    setFormError(null);
    if (problem) return;
    await run(
      async () => {
        await onCreate({ scope, id: trimmed, description: description.trim() || undefined, containedPermissionIds: contained });
        setId("");
        setDescription("");
        setContained([]);
      },
      {
        fallback: "Could not create the permission.",
        message: (error, fallback) => {
          if (!(error instanceof KnownError && error.code === "PERMISSION_ID_ALREADY_EXISTS")) return errorMessage(error, fallback);
          setIdError("This id is already taken (ids are unique across both scopes).");
          return null;
        },
      },
    );
  };

  const toggle = (value: string, on: boolean) => setContained((list) => (on ? [...list, value] : list.filter((v) => v !== value)));

  return (
    <form className="panel form" noValidate onSubmit={onSubmit} aria-labelledby={`${formId}-heading`}>
      <h2 id={`${formId}-heading`}>Create a permission</h2>
      <Alert message={formError} />
      <div className="field">
        <label htmlFor={`${formId}-scope`}>Scope</label>
        <select
          id={`${formId}-scope`}
          className="input"
          value={scope}
          onChange={(e) => {
            setScope(e.target.value as Scope);
            setContained([]);
          }}
        >
          <option value="team">Team (held per team)</option>
          <option value="project">Project (held per user)</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${formId}-id`}>Id</label>
        <input
          id={`${formId}-id`}
          name="permissionId"
          className="input"
          value={id}
          placeholder="read:docs"
          aria-invalid={idError ? true : undefined}
          aria-describedby={idError ? `${formId}-id-error` : undefined}
          onChange={(e) => {
            setId(e.target.value);
            setIdError(null);
          }}
        />
        {idError ? (
          <p className="field-error" id={`${formId}-id-error`}>
            {idError}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={`${formId}-description`}>Description (optional)</label>
        <input
          id={`${formId}-description`}
          name="description"
          className="input"
          value={description}
          maxLength={1024}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      <fieldset className="field permission-contains">
        <legend>Contains</legend>
        {existing[scope].length === 0 ? (
          <p className="muted">No {scope} permissions yet.</p>
        ) : (
          existing[scope].map((d) => (
            <label key={d.id} className="permission-option">
              <input type="checkbox" checked={contained.includes(d.id)} onChange={(e) => toggle(d.id, e.target.checked)} />{" "}
              <code>{d.id}</code>
            </label>
          ))
        )}
      </fieldset>
      <button type="submit" className="btn" disabled={pending}>
        {pending ? "Creating…" : "Create permission"}
      </button>
    </form>
  );
}
