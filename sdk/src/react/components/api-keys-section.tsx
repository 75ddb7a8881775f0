/**
 * API keys in account and team settings: create (description + expiry; the new key is shown once
 * with a copy button), list by last four with status, and revoke after confirmation. Each section
 * appears only when the project allows that kind of key; the team section also hides itself from
 * members without `$manage_api_keys`.
 */
import { type FormEvent, useCallback, useEffect, useId, useState } from "react";
import type { ReactApiKey, ReactApiKeyFirstView, ReactApiKeyOwner } from "../api-key-types";
import { useProjectFlag } from "../use-project";
import { errorCodeOf, messageOf } from "./code-messages";
import { CopyButton } from "./copy-button";
import { Field, FormAlert } from "./field";

const DAY = 24 * 3600_000;
const EXPIRY_CHOICES = [
  { id: "1d", label: "1 day", ms: DAY },
  { id: "7d", label: "7 days", ms: 7 * DAY },
  { id: "30d", label: "30 days", ms: 30 * DAY },
  { id: "90d", label: "90 days", ms: 90 * DAY },
  { id: "1y", label: "1 year", ms: 365 * DAY },
  { id: "never", label: "Never", ms: null },
] as const;
type ExpiryId = (typeof EXPIRY_CHOICES)[number]["id"];
const DESCRIPTION_MAX = 1024; // wire limit

function statusOf(key: ReactApiKey): { label: string; warn: boolean } {
  const why = key.whyInvalid();
  if (why === "expired") return { label: "Expired", warn: true };
  if (why === "manually-revoked") return { label: "Revoked", warn: true };
  return { label: "Active", warn: false };
}

function NewKeyNotice({ apiKey, onDone }: { apiKey: ReactApiKeyFirstView; onDone: () => void }) {
  return (
    <div className="stack-alert stack-success" role="status" aria-live="polite">
      <p>
        <strong>Copy this key now.</strong> It is shown only once: only its last four characters are stored in a readable form.
      </p>
      <p>
        <code className="stack-code" data-testid="new-api-key">
          {apiKey.value}
        </code>
      </p>
      <div className="stack-actions">
        <CopyButton value={apiKey.value} label="API key" />
        <button type="button" className="stack-button stack-small" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

function KeyItem({ apiKey, pending, onRevoke }: { apiKey: ReactApiKey; pending: boolean; onRevoke: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const status = statusOf(apiKey);
  const expiry = apiKey.expiresAt ? `expires ${apiKey.expiresAt.toLocaleDateString()}` : "never expires";
  return (
    <li className="stack-list-item" data-testid="api-key-item">
      <span>
        <strong>{apiKey.description || "Untitled key"}</strong> <code className="stack-code">…{apiKey.value.lastFour}</code>{" "}
        <span className={status.warn ? "stack-badge stack-badge-warn" : "stack-badge"}>{status.label}</span>
        {apiKey.isPublic ? <span className="stack-badge">Public</span> : null}
        <span className="stack-hint">
          {" "}
          Created {apiKey.createdAt.toLocaleDateString()} · {expiry}
        </span>
      </span>
      {status.warn ? null : confirming ? (
        <span className="stack-actions">
          <span className="stack-hint">Revoke for good? Anything using it stops working.</span>
          <button type="button" className="stack-button stack-danger stack-small" disabled={pending} onClick={onRevoke}>
            Confirm revoke
          </button>
          <button type="button" className="stack-button stack-secondary stack-small" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </span>
      ) : (
        <button type="button" className="stack-button stack-danger stack-small" disabled={pending} onClick={() => setConfirming(true)}>
          Revoke
        </button>
      )}
    </li>
  );
}

/**
 * The key manager for one owner (a user or a team).
 *
 * @example
 * <ApiKeysPanel owner={user} title="API keys" />
 */
export function ApiKeysPanel({
  owner,
  title,
  hint,
  hideWhenForbidden = false,
  headingLevel = 2,
}: {
  owner: ReactApiKeyOwner;
  title: string;
  hint?: string;
  hideWhenForbidden?: boolean;
  /** 3 when nested in another section (team settings), so the outline stays in order. */
  headingLevel?: 2 | 3;
}) {
  const headingId = useId();
  const expiryId = useId();
  const [keys, setKeys] = useState<ReactApiKey[] | null>(null);
  const [forbidden, setForbidden] = useState(false);
  const [newKey, setNewKey] = useState<ReactApiKeyFirstView | null>(null);
  const [description, setDescription] = useState("");
  const [descriptionError, setDescriptionError] = useState<string | null>(null);
  const [expiry, setExpiry] = useState<ExpiryId>("90d");
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const reload = useCallback(() => {
    owner.listApiKeys().then(setKeys, (e: unknown) => {
      if (hideWhenForbidden && errorCodeOf(e) === "TEAM_PERMISSION_REQUIRED") setForbidden(true);
      else setError(messageOf(e));
    });
  }, [owner, hideWhenForbidden]);
  useEffect(reload, [reload]);

  const run = async (label: string, work: () => Promise<unknown>) => {
    setPending(true);
    setError(null);
    setStatus(null);
    try {
      await work();
      setStatus(label);
      reload();
    } catch (e) {
      setError(messageOf(e));
    }
    setPending(false);
  };

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = description.trim();
    if (!text) return setDescriptionError("Describe what the key is for.");
    if (text.length > DESCRIPTION_MAX) return setDescriptionError(`At most ${DESCRIPTION_MAX} characters.`);
    const ms = EXPIRY_CHOICES.find((c) => c.id === expiry)?.ms ?? null;
    await run("API key created.", async () => {
      setNewKey(await owner.createApiKey({ description: text, expiresAt: ms === null ? null : new Date(Date.now() + ms) }));
      setDescription("");
    });
  };

  if (forbidden) return null;
  return (
    <section className="stack-section" aria-labelledby={headingId}>
      {headingLevel === 3 ? <h3 id={headingId}>{title}</h3> : <h2 id={headingId}>{title}</h2>}
      {hint ? <p className="stack-hint">{hint}</p> : null}
      <FormAlert message={error} />
      {newKey ? <NewKeyNotice apiKey={newKey} onDone={() => setNewKey(null)} /> : null}
      {keys && keys.length === 0 ? <p className="stack-hint">No API keys yet.</p> : null}
      <ul className="stack-list" aria-label={title}>
        {(keys ?? []).map((k) => (
          <KeyItem key={k.id} apiKey={k} pending={pending} onRevoke={() => run("API key revoked.", () => k.revoke())} />
        ))}
      </ul>
      <form className="stack-form" noValidate onSubmit={create} aria-label={`Create ${title.toLowerCase()}`}>
        <Field
          label="Description"
          name="apiKeyDescription"
          value={description}
          maxLength={DESCRIPTION_MAX + 1}
          hint="What will use this key, e.g. “CI deploys”."
          error={descriptionError}
          onChange={(e) => {
            setDescription(e.target.value);
            setDescriptionError(null);
          }}
        />
        <div className="stack-field">
          <label htmlFor={expiryId}>Expires after</label>
          <select id={expiryId} className="stack-input" value={expiry} onChange={(e) => setExpiry(e.target.value as ExpiryId)}>
            {EXPIRY_CHOICES.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
        <div className="stack-actions">
          <button className="stack-button" type="submit" disabled={pending}>
            Create API key
          </button>
          <span role="status" aria-live="polite" className="stack-hint">
            {status ?? ""}
          </span>
        </div>
      </form>
    </section>
  );
}

/**
 * The signed-in user's API keys (account settings), shown when the project allows user API keys.
 *
 * @example
 * <UserApiKeysSection user={useUser({ or: "redirect" })} />
 */
export function UserApiKeysSection({ user }: { user: ReactApiKeyOwner }) {
  const enabled = useProjectFlag("allow_user_api_keys") === true;
  if (!enabled) return null;
  return <ApiKeysPanel owner={user} title="API keys" hint="Keys let scripts and other apps act as you. Treat them like passwords." />;
}

/**
 * A team's API keys (team settings), shown when the project allows team API keys and the user
 * holds `$manage_api_keys` in the team.
 *
 * @example
 * <TeamApiKeysSection team={team} />
 */
export function TeamApiKeysSection({ team }: { team: ReactApiKeyOwner }) {
  const enabled = useProjectFlag("allow_team_api_keys") === true;
  if (!enabled) return null;
  return (
    <ApiKeysPanel
      owner={team}
      title="Team API keys"
      hint="Keys let scripts and other apps act as this team."
      hideWhenForbidden
      headingLevel={3}
    />
  );
}
