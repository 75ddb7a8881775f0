/**
 * Who gets an email: users picked by searching (listUsers), all users, or the members of a team
 * (listTeams). `resolveRecipients` turns the choice into what sendEmail takes, with the count the
 * send confirmation states.
 */

import type { ServerTeam } from "@doorman/sdk";
import { type RefObject, useEffect, useState } from "react";
import type { OwnedProject } from "../../lib/dashboard-types";
import { errorMessage } from "../../lib/project-context";
import { Alert } from "../console-ui";

type App = OwnedProject["app"];
export type PickedUser = { id: string; label: string };
export type Recipients = { kind: "users"; users: PickedUser[] } | { kind: "all" } | { kind: "team"; teamId: string };
export type ResolvedRecipients = { target: { userIds: string[] } | { allUsers: true }; count: number; what: string };

const userLabel = (u: { displayName: string | null; primaryEmail: string | null; id: string }) =>
  u.displayName && u.primaryEmail ? `${u.displayName} (${u.primaryEmail})` : (u.primaryEmail ?? u.displayName ?? u.id);

/** What sendEmail gets, how many users that is, and a phrase for the confirmation. */
export async function resolveRecipients(app: App, r: Recipients): Promise<ResolvedRecipients> {
  if (r.kind === "users") return { target: { userIds: r.users.map((u) => u.id) }, count: r.users.length, what: "the chosen users" };
  if (r.kind === "all") {
    const stats = await app.getProjectStats();
    return { target: { allUsers: true }, count: stats.userCount, what: "all users" };
  }
  const team = await app.getTeam(r.teamId);
  if (!team) throw new Error("That team no longer exists.");
  const members = await team.listUsers();
  return { target: { userIds: members.map((m) => m.id) }, count: members.length, what: `the members of ${team.displayName}` };
}

/** Why the choice cannot be sent yet, or null. */
export function recipientsProblem(r: Recipients): string | null {
  if (r.kind === "users" && r.users.length === 0) return "Choose at least one user.";
  if (r.kind === "team" && !r.teamId) return "Choose a team.";
  return null;
}

export function RecipientPicker(props: {
  id: string;
  app: App;
  value: Recipients;
  onChange: (r: Recipients) => void;
  error?: string | null;
  /** Focused when the choice has an error (the search box or the team list). */
  focusRef?: RefObject<HTMLInputElement | HTMLSelectElement | null>;
}) {
  const { id, app, value, onChange } = props;
  const [query, setQuery] = useState("");
  const [found, setFound] = useState<PickedUser[] | null>(null);
  const [searchError, setSearchError] = useState<string | null>(null);
  const [teams, setTeams] = useState<ServerTeam[] | null>(null);

  useEffect(() => {
    if (value.kind !== "users") return;
    let live = true;
    const timer = setTimeout(() => {
      app
        .listUsers({ query: query.trim() || undefined, limit: 8, orderBy: "primaryEmail" })
        .then((users) => {
          if (!live) return;
          setFound(users.map((u) => ({ id: u.id, label: userLabel(u) })));
          setSearchError(null);
        })
        .catch((e: unknown) => live && setSearchError(errorMessage(e, "Could not search the users.")));
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [app, query, value.kind]);

  useEffect(() => {
    if (value.kind !== "team" || teams) return;
    app
      .listTeams()
      .then(setTeams)
      .catch((e: unknown) => setSearchError(errorMessage(e, "Could not load the teams.")));
  }, [app, value.kind, teams]);

  const picked = value.kind === "users" ? value.users : [];
  const errorId = props.error ? `${id}-error` : undefined;
  const setRef = (el: HTMLInputElement | HTMLSelectElement | null) => {
    if (props.focusRef) (props.focusRef as { current: HTMLInputElement | HTMLSelectElement | null }).current = el;
  };

  return (
    <fieldset className="field recipient-picker">
      <legend>Send to</legend>
      <div className="inline">
        <label className="inline">
          <input
            type="radio"
            name={`${id}-kind`}
            checked={value.kind === "users"}
            onChange={() => onChange({ kind: "users", users: picked })}
          />{" "}
          Chosen users
        </label>
        <label className="inline">
          <input type="radio" name={`${id}-kind`} checked={value.kind === "all"} onChange={() => onChange({ kind: "all" })} /> All users
        </label>
        <label className="inline">
          <input type="radio" name={`${id}-kind`} checked={value.kind === "team"} onChange={() => onChange({ kind: "team", teamId: "" })} />{" "}
          A team
        </label>
      </div>
      {value.kind === "users" ? (
        <>
          <div className="field">
            <label htmlFor={`${id}-search`}>Find users</label>
            <input
              id={`${id}-search`}
              ref={setRef}
              className="input"
              type="search"
              value={query}
              placeholder="Name or email"
              onChange={(e) => setQuery(e.target.value)}
              aria-invalid={props.error ? true : undefined}
              aria-describedby={errorId}
            />
          </div>
          {found && found.length > 0 ? (
            <ul className="pick-list" aria-label="Matching users">
              {found.map((u) => {
                const chosen = picked.some((p) => p.id === u.id);
                return (
                  <li key={u.id}>
                    <span className="pick-label">{u.label}</span>
                    <button
                      type="button"
                      className="btn btn-secondary btn-small"
                      disabled={chosen}
                      aria-label={chosen ? `${u.label} is chosen` : `Add ${u.label}`}
                      onClick={() => onChange({ kind: "users", users: [...picked, u] })}
                    >
                      {chosen ? "Chosen" : "Add"}
                    </button>
                  </li>
                );
              })}
            </ul>
          ) : found ? (
            <p className="muted">No user matches.</p>
          ) : null}
          {picked.length > 0 ? (
            <ul className="pick-list pick-chosen" aria-label="Chosen users">
              {picked.map((u) => (
                <li key={u.id}>
                  <span className="pick-label">{u.label}</span>
                  <button
                    type="button"
                    className="btn btn-secondary btn-small"
                    aria-label={`Remove ${u.label}`}
                    onClick={() => onChange({ kind: "users", users: picked.filter((p) => p.id !== u.id) })}
                  >
                    Remove
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No user chosen yet.</p>
          )}
        </>
      ) : value.kind === "team" ? (
        <div className="field">
          <label htmlFor={`${id}-team`}>Team</label>
          <select
            id={`${id}-team`}
            ref={setRef}
            className="input"
            value={value.teamId}
            onChange={(e) => onChange({ kind: "team", teamId: e.target.value })}
            aria-invalid={props.error ? true : undefined}
            aria-describedby={errorId}
          >
            <option value="">{teams ? "Choose a team" : "Loading the teams…"}</option>
            {(teams ?? []).map((t) => (
              <option key={t.id} value={t.id}>
                {t.displayName}
              </option>
            ))}
          </select>
        </div>
      ) : (
        <p className="muted">Every user of the project with a primary email whose notification settings allow this kind of email.</p>
      )}
      <Alert message={searchError} />
      {props.error ? (
        <p className="field-error" id={errorId}>
          {props.error}
        </p>
      ) : null}
    </fieldset>
  );
}
