/**
 * Picks one user of the project by searching (GET /users?query=, as the Users page): an ARIA 1.2
 * combobox (a text box with a list of matches; arrows move, Enter picks, Escape closes). The picked
 * user shows as a chip with "Change"; nothing is pasted by id.
 */

import type { ServerUser } from "@doorman/sdk";
import { type KeyboardEvent, type RefObject, useEffect, useId, useState } from "react";
import type { OwnedProject } from "../../lib/dashboard-types";
import { errorMessage } from "../../lib/project-context";
import { userLabel } from "./user-table";

const SEARCH_DELAY_MS = 250;

export function UserCombobox(props: {
  project: OwnedProject;
  label: string;
  hint?: string;
  value: ServerUser | null;
  onChange: (user: ServerUser | null) => void;
  error?: string;
  inputRef?: RefObject<HTMLInputElement>;
}) {
  const { project, value, onChange } = props;
  const id = useId();
  const [query, setQuery] = useState("");
  const [results, setResults] = useState<ServerUser[] | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [searchError, setSearchError] = useState<string | null>(null);

  // Searches as the owner types (debounced); the latest query wins.
  useEffect(() => {
    const q = query.trim();
    if (!q) {
      setResults(null);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      project.app.listUsers({ query: q, limit: 8, orderBy: "primaryEmail" }).then(
        (list) => {
          if (!live) return;
          setResults(list);
          setActive(list.length ? 0 : -1);
          setSearchError(null);
        },
        (e: unknown) => live && setSearchError(errorMessage(e, "Could not search the users.")),
      );
    }, SEARCH_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [project, query]);

  const pick = (user: ServerUser) => {
    onChange(user);
    setQuery("");
    setResults(null);
    setOpen(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const count = results?.length ?? 0;
    if (event.key === "ArrowDown" && count) {
      event.preventDefault();
      setOpen(true);
      setActive((i) => (i + 1) % count);
    } else if (event.key === "ArrowUp" && count) {
      event.preventDefault();
      setOpen(true);
      setActive((i) => (i <= 0 ? count - 1 : i - 1));
    } else if (event.key === "Enter" && open && results?.[active]) {
      event.preventDefault();
      pick(results[active]);
    } else if (event.key === "Escape") {
      setOpen(false);
    }
  };

  const describedBy = [props.hint ? `${id}-hint` : null, props.error || searchError ? `${id}-error` : null].filter(Boolean).join(" ");
  const listId = `${id}-list`;
  const expanded = open && results !== null;

  return (
    <div className="field user-combobox">
      <label htmlFor={`${id}-input`}>{props.label}</label>
      {value ? (
        <p className="user-picked">
          <span>
            <strong>{userLabel(value)}</strong>
            {value.primaryEmail && value.primaryEmail !== userLabel(value) ? <span className="muted"> · {value.primaryEmail}</span> : null}
          </span>
          <button
            type="button"
            className="btn btn-secondary btn-small"
            aria-label={`Change the user (${userLabel(value)})`}
            onClick={() => onChange(null)}
          >
            Change
          </button>
        </p>
      ) : (
        <>
          <input
            ref={props.inputRef}
            id={`${id}-input`}
            className="input"
            type="text"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={expanded}
            aria-controls={listId}
            aria-activedescendant={expanded && active >= 0 ? `${id}-opt-${active}` : undefined}
            aria-invalid={props.error ? true : undefined}
            aria-describedby={describedBy || undefined}
            autoComplete="off"
            spellCheck={false}
            placeholder="Email, name or id"
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              setOpen(true);
            }}
            onKeyDown={onKeyDown}
            onBlur={() => setTimeout(() => setOpen(false), 150)}
          />
          <div
            id={listId}
            role="listbox"
            aria-label={`${props.label}: matches`}
            className="user-options"
            hidden={!expanded || !results?.length}
          >
            {results?.map((user, i) => (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the text box handles the keys (aria-activedescendant), as the combobox pattern says.
              <div
                key={user.id}
                id={`${id}-opt-${i}`}
                role="option"
                tabIndex={-1}
                aria-selected={i === active}
                className={i === active ? "user-option user-option-active" : "user-option"}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pick(user)}
              >
                <strong>{userLabel(user)}</strong>
                {user.primaryEmail && user.primaryEmail !== userLabel(user) ? <span className="muted"> · {user.primaryEmail}</span> : null}
                <span className="muted user-option-id"> · {user.id.slice(0, 8)}</span>
              </div>
            ))}
          </div>
          {expanded && results?.length === 0 ? (
            <p className="muted" role="status">
              No user matches.
            </p>
          ) : null}
        </>
      )}
      {props.hint ? (
        <p className="muted team-hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      ) : null}
      {props.error || searchError ? (
        <p className="field-error" id={`${id}-error`}>
          {props.error ?? searchError}
        </p>
      ) : null}
    </div>
  );
}
