/**
 * Picks a customer: a user (searched with listUsers), a team (listTeams, filtered by name) or a
 * custom id typed in. The Customers section shows the one picked; a test checkout buys for it (then
 * the kind is the offer's, fixed). Each picker's ids start with its own prefix.
 */

import type { CustomerType } from "@doorman/shared/wire-payments";
import { type FormEvent, useEffect, useState } from "react";
import type { OwnedProject } from "../../lib/dashboard-types";
import { errorMessage } from "../../lib/project-context";
import { TextField } from "../console-ui";

export type PickedCustomer = { customerType: CustomerType; customerId: string; label: string };

/** The SDK's customer selector of a picked customer. */
export const customerSelector = (c: PickedCustomer) =>
  c.customerType === "user"
    ? { userId: c.customerId }
    : c.customerType === "team"
      ? { teamId: c.customerId }
      : { customCustomerId: c.customerId };
type Found = { id: string; label: string };

function useMatches(app: OwnedProject["app"], type: CustomerType, query: string): { found: Found[] | null; error: string | null } {
  // Kept with the type searched, so a user list never shows under "Team" while the new search runs.
  const [found, setFound] = useState<{ type: CustomerType; list: Found[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (type === "custom") return;
    let live = true;
    const timer = setTimeout(async () => {
      try {
        const q = query.trim();
        const list: Found[] =
          type === "user"
            ? // Restricted users (e.g. an email still to verify) are customers too: the owner may grant to them or test a checkout.
              (await app.listUsers({ query: q || undefined, limit: 8, orderBy: "primaryEmail", includeRestricted: true })).map((u) => ({
                id: u.id,
                label: u.displayName && u.primaryEmail ? `${u.displayName} (${u.primaryEmail})` : (u.primaryEmail ?? u.displayName ?? u.id),
              }))
            : (await app.listTeams())
                .filter((t) => !q || t.displayName.toLowerCase().includes(q.toLowerCase()) || t.id === q)
                .slice(0, 8)
                .map((t) => ({ id: t.id, label: t.displayName }));
        if (!live) return;
        setFound({ type, list });
        setError(null);
      } catch (e) {
        if (live) setError(errorMessage(e, "Could not search."));
      }
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [app, type, query]);
  return { found: found?.type === type ? found.list : null, error };
}

const TYPES = [
  ["user", "User"],
  ["team", "Team"],
  ["custom", "Custom id"],
] as const;

export function CustomerPicker({
  app,
  onPick,
  idPrefix = "payments",
  only,
  pickLabel = "Show",
}: {
  app: OwnedProject["app"];
  onPick: (c: PickedCustomer) => void;
  /** The prefix of the picker's ids (two pickers on one page need two). */
  idPrefix?: string;
  /** Only this kind of customer (the radio buttons are left out). */
  only?: CustomerType;
  /** The verb of each match's button ("Show", "Choose"). */
  pickLabel?: string;
}) {
  const [chosenType, setType] = useState<CustomerType>(only ?? "user");
  const type = only ?? chosenType;
  const [query, setQuery] = useState("");
  const [customId, setCustomId] = useState("");
  const [customError, setCustomError] = useState<string | null>(null);
  const { found, error } = useMatches(app, type, query);

  const showCustom = (event: FormEvent) => {
    event.preventDefault();
    const id = customId.trim();
    if (!id || id.length > 256) {
      setCustomError("Enter the custom customer id.");
      setTimeout(() => document.getElementById(`${idPrefix}-custom-id`)?.focus());
      return;
    }
    setCustomError(null);
    onPick({ customerType: "custom", customerId: id, label: id });
  };

  return (
    <div className="payments-picker">
      {only ? null : (
        <fieldset className="choice-group">
          <legend>Kind of customer</legend>
          <div className="inline">
            {TYPES.map(([value, label]) => (
              <label key={value} className="choice">
                <input type="radio" name={`${idPrefix}-customer-type`} checked={type === value} onChange={() => setType(value)} /> {label}
              </label>
            ))}
          </div>
        </fieldset>
      )}
      {type === "custom" ? (
        <form className="inline payments-custom" onSubmit={showCustom} noValidate aria-label={`${pickLabel} a custom customer`}>
          <TextField
            id={`${idPrefix}-custom-id`}
            label="Custom customer id"
            value={customId}
            onChange={(e) => setCustomId(e.target.value)}
            error={customError}
            hint="The id your app uses for this customer (an organization, a device…)."
          />
          <button type="submit" className="btn btn-secondary">
            {pickLabel} customer
          </button>
        </form>
      ) : (
        <>
          <div className="field">
            <label htmlFor={`${idPrefix}-customer-search`}>{type === "user" ? "Find a user" : "Find a team"}</label>
            <input
              id={`${idPrefix}-customer-search`}
              className="input"
              type="search"
              value={query}
              placeholder={type === "user" ? "Name or email" : "Team name"}
              onChange={(e) => setQuery(e.target.value)}
            />
          </div>
          {error ? (
            <p className="alert" role="alert">
              {error}
            </p>
          ) : found === null ? (
            <p className="muted" role="status">
              Searching…
            </p>
          ) : found.length === 0 ? (
            <p className="muted">{type === "user" ? "No user matches." : "No team matches."}</p>
          ) : (
            <ul className="pick-list" aria-label={type === "user" ? "Matching users" : "Matching teams"}>
              {found.map((c) => (
                <li key={c.id}>
                  <span className="pick-label">{c.label}</span>
                  <button
                    type="button"
                    className="btn btn-secondary btn-small"
                    aria-label={`${pickLabel} ${c.label}`}
                    onClick={() => onPick({ customerType: type, customerId: c.id, label: c.label })}
                  >
                    {pickLabel}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
