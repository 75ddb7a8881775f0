/**
 * The user's contact channels (emails): primary, verified and sign-in state, with "mark
 * verified", "make primary" and remove (confirmed), and a form to add an email.
 */

import { KnownError, type ServerContactChannel, type ServerUser } from "@doorman/sdk";
import { type FormEvent, useCallback, useId, useRef, useState } from "react";
import { focusFirstError } from "../../lib/focus-first-error";
import { errorMessage } from "../../lib/project-context";
import { useLoad } from "../../lib/use-load";
import { ConfirmButton, useAction } from "../console-ui";
import { DataTable } from "../data-table";

type Props = { user: ServerUser; toast: (m: string) => void; onChange: () => Promise<void> };

export function ContactChannelsPanel({ user, toast, onChange }: Props) {
  const id = useId();
  const load = useCallback(() => user.listContactChannels(), [user]);
  const channels = useLoad(load, "the contact channels");
  const { error, run } = useAction();

  const act = async (action: () => Promise<void>, message: string) => {
    await run(async () => {
      await action();
      toast(message);
      await Promise.all([channels.reload(), onChange()]);
    }, "That did not work.");
  };

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Contact channels</h2>
      {error || channels.error ? (
        <p className="alert" role="alert">
          {error ?? channels.error}
        </p>
      ) : null}
      {channels.value === null ? (
        channels.error ? null : (
          <p className="muted" role="status">
            Loading contact channels…
          </p>
        )
      ) : (
        <DataTable isEmpty={channels.value.length === 0} empty="No emails." className="user-table" label="Emails">
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">State</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {channels.value.map((c) => (
              <ChannelRow key={c.id} channel={c} act={act} />
            ))}
          </tbody>
        </DataTable>
      )}
      <AddChannelForm
        onAdd={async (value, isVerified, usedForAuth) => {
          await user.createContactChannel({ value, isVerified, usedForAuth });
          toast(`${value} added.`);
          await Promise.all([channels.reload(), onChange()]);
        }}
      />
    </section>
  );
}

function ChannelRow({
  channel: c,
  act,
}: {
  channel: ServerContactChannel;
  act: (action: () => Promise<void>, message: string) => Promise<void>;
}) {
  return (
    <tr>
      <td>{c.value}</td>
      <td>
        <span className="user-badges">
          {c.isPrimary ? <span className="badge">primary</span> : null}
          <span className={c.isVerified ? "badge" : "badge badge-muted"}>{c.isVerified ? "verified" : "unverified"}</span>
          {c.usedForAuth ? <span className="badge">used for sign-in</span> : null}
        </span>
      </td>
      <td>
        <span className="row-actions">
          <button
            type="button"
            className="btn btn-secondary btn-small"
            aria-label={`${c.isVerified ? "Mark unverified" : "Mark verified"}: ${c.value}`}
            onClick={() =>
              act(() => c.update({ isVerified: !c.isVerified }), `${c.value} marked ${c.isVerified ? "unverified" : "verified"}.`)
            }
          >
            {c.isVerified ? "Mark unverified" : "Mark verified"}
          </button>
          {c.isPrimary ? null : (
            <button
              type="button"
              className="btn btn-secondary btn-small"
              aria-label={`Make primary: ${c.value}`}
              onClick={() => act(() => c.update({ isPrimary: true }), `${c.value} is now the primary email.`)}
            >
              Make primary
            </button>
          )}
          <ConfirmButton
            small
            label="Remove"
            ariaLabel={`Remove ${c.value}`}
            title={`Remove ${c.value}?`}
            consequence={
              c.usedForAuth
                ? "The user can no longer sign in with this email (password and magic link), and stops receiving mail at it."
                : "The user stops receiving mail at this address."
            }
            confirmLabel="Remove email"
            onConfirm={() => act(() => c.delete(), `${c.value} removed.`)}
          />
        </span>
      </td>
    </tr>
  );
}

function AddChannelForm({ onAdd }: { onAdd: (value: string, isVerified: boolean, usedForAuth: boolean) => Promise<void> }) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const [value, setValue] = useState("");
  const [verified, setVerified] = useState(false);
  const [usedForAuth, setUsedForAuth] = useState(false);
  const { busy: pending, error, setError, run } = useAction();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const email = value.trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
      setError(email ? "This is not an email address." : "Please enter an email address.");
      return focusFirstError(form.current);
    }
    await run(
      async () => {
        await onAdd(email, verified, usedForAuth);
        setValue("");
        setVerified(false);
        setUsedForAuth(false);
      },
      {
        fallback: "Could not add the email.",
        message: (e, fallback) =>
          e instanceof KnownError && e.code === "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE"
            ? "Another user already signs in with this email."
            : errorMessage(e, fallback),
        focus: form.current,
      },
    );
  };

  return (
    <form ref={form} className="form add-channel" noValidate onSubmit={onSubmit} aria-label="Add an email">
      <div className="field">
        <label htmlFor={`${id}-email`}>Add an email</label>
        <input
          id={`${id}-email`}
          className="input"
          type="email"
          autoComplete="off"
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => {
            setValue(e.target.value);
            setError(null);
          }}
        />
        {error ? (
          <p className="field-error" id={`${id}-error`}>
            {error}
          </p>
        ) : null}
      </div>
      <label className="checkbox-row">
        <input type="checkbox" checked={verified} onChange={(e) => setVerified(e.target.checked)} />
        Already verified
      </label>
      <label className="checkbox-row">
        <input type="checkbox" checked={usedForAuth} onChange={(e) => setUsedForAuth(e.target.checked)} />
        Used for sign-in
      </label>
      <div>
        <button type="submit" className="btn btn-secondary" disabled={pending} aria-busy={pending}>
          {pending ? "Adding…" : "Add email"}
        </button>
      </div>
    </form>
  );
}
