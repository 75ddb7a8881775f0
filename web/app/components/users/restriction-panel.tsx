/**
 * Restricting a user by an admin: the current state (and any other reason the user counts as
 * restricted), a reason shown to the user and private details kept for admins; "Restrict user"
 * asks first, "Lift restriction" clears the restriction and both texts.
 */

import type { ServerUser, ServerUserUpdateOptions } from "@doorman/sdk";
import { type FormEvent, useId, useRef, useState } from "react";
import { ConfirmButton, useAction } from "../console-ui";

type Props = {
  user: ServerUser;
  label: string;
  onSave: (update: ServerUserUpdateOptions, message: string) => Promise<void>;
};

/** Why the user counts as restricted apart from an admin, in words (null when nothing else applies). */
function otherRestriction(user: ServerUser): string | null {
  if (!user.isRestricted || user.restrictedByAdmin) return null;
  if (user.restrictedReason?.type === "email_not_verified")
    return "They are restricted until they verify their email (this project requires it).";
  if (user.restrictedReason?.type === "anonymous") return "They are an anonymous user, which counts as restricted.";
  return null;
}

export function RestrictionPanel({ user, label, onSave }: Props) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const [reason, setReason] = useState(user.restrictedByAdminReason ?? "");
  const [details, setDetails] = useState(user.restrictedByAdminPrivateDetails ?? "");
  const action = useAction();
  const { error } = action;
  const pending = action.running as "save" | "lift" | null;

  const texts = () => ({ restrictedByAdminReason: reason.trim() || null, restrictedByAdminPrivateDetails: details.trim() || null });

  const run = (kind: "save" | "lift", update: ServerUserUpdateOptions, message: string) =>
    action.run(() => onSave(update, message), { name: kind, fallback: "Could not change the restriction.", focus: form.current });

  // Submitting (Enter in a field) saves the texts of a restricted user; restricting goes through the confirmation.
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (user.restrictedByAdmin) run("save", texts(), "Restriction details saved.");
  };

  const other = otherRestriction(user);
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Restriction</h2>
      <p role="status">
        {user.restrictedByAdmin ? (
          <>
            <span className="badge badge-warn">restricted by admin</span> {label} is restricted: apps treat them as signed out and their
            requests are refused until you lift it.
          </>
        ) : (
          <>Not restricted by an admin.</>
        )}
      </p>
      {other ? <p className="muted">{other}</p> : null}
      <form ref={form} className="form" noValidate onSubmit={onSubmit}>
        {error ? (
          <p className="alert" role="alert" tabIndex={-1}>
            {error}
          </p>
        ) : null}
        <div className="field">
          <label htmlFor={`${id}-reason`}>Reason shown to the user</label>
          <input
            id={`${id}-reason`}
            className="input"
            value={reason}
            maxLength={1024}
            aria-describedby={`${id}-reason-hint`}
            onChange={(e) => setReason(e.target.value)}
          />
          <p className="muted" id={`${id}-reason-hint`}>
            Optional. The user can read it.
          </p>
        </div>
        <div className="field">
          <label htmlFor={`${id}-details`}>Private details (admins only)</label>
          <textarea
            id={`${id}-details`}
            className="input"
            rows={3}
            value={details}
            maxLength={4096}
            onChange={(e) => setDetails(e.target.value)}
          />
        </div>
        <div className="inline">
          {user.restrictedByAdmin ? (
            <>
              <button type="submit" className="btn btn-secondary" disabled={pending !== null} aria-busy={pending === "save"}>
                {pending === "save" ? "Saving…" : "Save reason and details"}
              </button>
              <button
                type="button"
                className="btn"
                disabled={pending !== null}
                aria-busy={pending === "lift"}
                onClick={() =>
                  run(
                    "lift",
                    { restrictedByAdmin: false, restrictedByAdminReason: null, restrictedByAdminPrivateDetails: null },
                    `Restriction of ${label} lifted.`,
                  )
                }
              >
                {pending === "lift" ? "Lifting…" : "Lift restriction"}
              </button>
            </>
          ) : (
            <ConfirmButton
              label="Restrict user"
              title={`Restrict ${label}?`}
              consequence={`From their next token refresh (within minutes) apps treat ${label} as signed out and refuse their requests, and the users list hides them unless restricted users are shown. Nothing is deleted; lifting the restriction gives them back their account as it was. They see the reason; the private details stay with admins.`}
              confirmLabel="Restrict user"
              onConfirm={() => onSave({ restrictedByAdmin: true, ...texts() }, `${label} restricted.`)}
            />
          )}
        </div>
      </form>
    </section>
  );
}
