/**
 * "Add a member" on a team's detail page: search the project's users by email, name or id
 * (GET /users?query=) and add one of the results, or add a user by id.
 */

import { KnownError, type ServerUser } from "@doorman/sdk";
import { type FormEvent, useId, useRef, useState } from "react";
import type { OwnedProject } from "../../lib/dashboard-types";
import { errorMessage } from "../../lib/project-context";
import { Alert, useAction } from "../console-ui";
import { userIdProblem } from "./team-fields";

type Props = {
  project: OwnedProject;
  memberIds: string[];
  onAdd(userId: string): Promise<void>;
};

/** The message of a failed add, in the owner's words. */
function addProblem(error: unknown): string | null {
  if (!(error instanceof KnownError)) return null;
  if (error.code === "TEAM_MEMBERSHIP_ALREADY_EXISTS") return "This user is already a member.";
  if (error.code === "USER_ID_DOES_NOT_EXIST") return "No user of this project has this id.";
  return null;
}

export function AddMemberForm({ project, memberIds, onAdd }: Props) {
  const id = useId();
  const [query, setQuery] = useState("");
  const [results, setResults] = useState<ServerUser[] | null>(null);
  const [userId, setUserId] = useState("");
  const [idError, setIdError] = useState<string | null>(null);
  const queryRef = useRef<HTMLInputElement>(null);
  const idRef = useRef<HTMLInputElement>(null);
  const search = useAction();
  const [adding, setAdding] = useState(false);
  const [addError, setAddError] = useState<string | null>(null);

  const onSearch = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (search.busy) return;
    if (!query.trim()) {
      search.setError("Type part of an email, a name or an id.");
      queryRef.current?.focus();
      return;
    }
    const ok = await search.run(async () => {
      setResults(await project.app.listUsers({ query: query.trim(), limit: 10 }));
    }, "Could not search the users.");
    if (!ok) queryRef.current?.focus();
  };

  /** Adds the user; the problem (null when added). */
  const addUser = async (targetId: string): Promise<string | null> => {
    setAdding(true);
    setAddError(null);
    try {
      await onAdd(targetId);
      return null;
    } catch (e) {
      return addProblem(e) ?? errorMessage(e, "Could not add the member.");
    } finally {
      setAdding(false);
    }
  };

  const onAddResult = async (targetId: string) => setAddError(await addUser(targetId));

  const onAddById = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (adding) return;
    const problem = userIdProblem(userId) ?? (await addUser(userId.trim()));
    setIdError(problem);
    if (problem) idRef.current?.focus();
    else setUserId("");
  };

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Add a member</h2>
      <form className="form" noValidate onSubmit={onSearch}>
        <div className="field">
          <label htmlFor={`${id}-query`}>Find a user by email, name or id</label>
          <div className="team-inline">
            <input
              ref={queryRef}
              id={`${id}-query`}
              className="input"
              type="search"
              value={query}
              aria-invalid={search.error ? true : undefined}
              aria-describedby={search.error ? `${id}-query-error` : undefined}
              onChange={(e) => setQuery(e.target.value)}
            />
            <button type="submit" className="btn btn-secondary" disabled={search.busy}>
              {search.busy ? "Searching…" : "Search"}
            </button>
          </div>
          {search.error ? (
            <p className="field-error" id={`${id}-query-error`}>
              {search.error}
            </p>
          ) : null}
        </div>
      </form>
      {results === null ? null : results.length === 0 ? (
        <p className="empty">No user matches.</p>
      ) : (
        <ul className="user-results" aria-label="Matching users">
          {results.map((user) => {
            const label = user.displayName ?? user.primaryEmail ?? user.id;
            const member = memberIds.includes(user.id);
            return (
              <li key={user.id}>
                <span>
                  <strong>{label}</strong>
                  {user.primaryEmail && user.primaryEmail !== label ? <span className="muted"> · {user.primaryEmail}</span> : null}
                  <br />
                  <code className="member-id">{user.id}</code>
                </span>
                {member ? (
                  <span className="badge">member</span>
                ) : (
                  <button
                    type="button"
                    className="btn btn-small"
                    disabled={adding}
                    aria-label={`Add ${label}`}
                    onClick={() => onAddResult(user.id)}
                  >
                    Add
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <Alert message={addError} />
      <form className="form add-by-id" noValidate onSubmit={onAddById}>
        <div className="field">
          <label htmlFor={`${id}-user-id`}>Or add by user id</label>
          <div className="team-inline">
            <input
              ref={idRef}
              id={`${id}-user-id`}
              className="input"
              value={userId}
              autoComplete="off"
              spellCheck={false}
              aria-invalid={idError ? true : undefined}
              aria-describedby={idError ? `${id}-user-id-error` : undefined}
              onChange={(e) => setUserId(e.target.value)}
            />
            <button type="submit" className="btn" disabled={adding}>
              {adding ? "Adding…" : "Add member"}
            </button>
          </div>
          {idError ? (
            <p className="field-error" id={`${id}-user-id-error`}>
              {idError}
            </p>
          ) : null}
        </div>
      </form>
    </section>
  );
}
