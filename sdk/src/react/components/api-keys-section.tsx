/**
 * API keys in account and team settings: create (description + expiry; the new key is shown once
 * with a copy button), list by last four with status, and revoke after confirmation. Each section
 * appears only when the project allows that kind of key; the team section also hides itself from
 * members without `$manage_api_keys`.
 */
import { type FormEvent, useCallback, useEffect, useId, useState } from "react";
import type { ReactApiKey, ReactApiKeyFirstView, ReactApiKeyOwner } from "../api-key-types";
import { useTranslation } from "../i18n/context";
import type { MessageKey } from "../i18n/en";
import type { I18n } from "../i18n/translator";
import { useProjectFlag } from "../use-project";
import { errorCodeOf, messageOf } from "./code-messages";
import { CopyButton } from "./copy-button";
import { Field, FormAlert } from "./field";

const DAY = 24 * 3600_000;
// The lengths are worded by Intl ("7 days", "7 Tage", "٧ أيام"), with the language's plural forms.
const EXPIRY_CHOICES = [
  { id: "1d", amount: 1, unit: "day", ms: DAY },
  { id: "7d", amount: 7, unit: "day", ms: 7 * DAY },
  { id: "30d", amount: 30, unit: "day", ms: 30 * DAY },
  { id: "90d", amount: 90, unit: "day", ms: 90 * DAY },
  { id: "1y", amount: 1, unit: "year", ms: 365 * DAY },
  { id: "never", amount: 0, unit: null, ms: null },
] as const;
type ExpiryId = (typeof EXPIRY_CHOICES)[number]["id"];
const DESCRIPTION_MAX = 1024; // wire limit

function expiryLabel(choice: (typeof EXPIRY_CHOICES)[number], { t, formatNumber }: I18n): string {
  return choice.unit ? formatNumber(choice.amount, { style: "unit", unit: choice.unit, unitDisplay: "long" }) : t("apiKeys.never");
}

function statusOf(key: ReactApiKey): { label: MessageKey; warn: boolean } {
  const why = key.whyInvalid();
  if (why === "expired") return { label: "apiKeys.expired", warn: true };
  if (why === "manually-revoked") return { label: "apiKeys.revoked", warn: true };
  return { label: "apiKeys.active", warn: false };
}

function NewKeyNotice({ apiKey, onDone }: { apiKey: ReactApiKeyFirstView; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="stack-alert stack-success" role="status" aria-live="polite">
      <p>
        <strong>{t("apiKeys.copyNow")}</strong> {t("apiKeys.shownOnce")}
      </p>
      <p>
        <code className="stack-code" data-testid="new-api-key">
          {apiKey.value}
        </code>
      </p>
      <div className="stack-actions">
        <CopyButton value={apiKey.value} label={t("apiKeys.copyLabel")} />
        <button type="button" className="stack-button stack-small" onClick={onDone}>
          {t("apiKeys.done")}
        </button>
      </div>
    </div>
  );
}

function KeyItem({ apiKey, pending, onRevoke }: { apiKey: ReactApiKey; pending: boolean; onRevoke: () => void }) {
  const { t, formatDate } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const status = statusOf(apiKey);
  const expiry = apiKey.expiresAt ? t("apiKeys.expires", { date: formatDate(apiKey.expiresAt) }) : t("apiKeys.neverExpires");
  return (
    <li className="stack-list-item" data-testid="api-key-item">
      <span>
        <strong>{apiKey.description || t("apiKeys.untitled")}</strong>{" "}
        <code className="stack-code" dir="ltr">
          …{apiKey.value.lastFour}
        </code>{" "}
        <span className={status.warn ? "stack-badge stack-badge-warn" : "stack-badge"}>{t(status.label)}</span>
        {apiKey.isPublic ? <span className="stack-badge">{t("apiKeys.public")}</span> : null}
        <span className="stack-hint">
          {" "}
          {t("apiKeys.created", { date: formatDate(apiKey.createdAt) })} · {expiry}
        </span>
      </span>
      {status.warn ? null : confirming ? (
        <span className="stack-actions">
          <span className="stack-hint">{t("apiKeys.confirmRevokeHint")}</span>
          <button type="button" className="stack-button stack-danger stack-small" disabled={pending} onClick={onRevoke}>
            {t("apiKeys.confirmRevoke")}
          </button>
          <button type="button" className="stack-button stack-secondary stack-small" onClick={() => setConfirming(false)}>
            {t("common.cancel")}
          </button>
        </span>
      ) : (
        <button type="button" className="stack-button stack-danger stack-small" disabled={pending} onClick={() => setConfirming(true)}>
          {t("common.revoke")}
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
  headingId: givenHeadingId,
}: {
  owner: ReactApiKeyOwner;
  title: string;
  hint?: string;
  hideWhenForbidden?: boolean;
  /** 3 when nested in another section (team settings), so the outline stays in order. */
  headingLevel?: 2 | 3;
  /** The heading's id (a link target, e.g. of account settings' section navigation); generated when absent. */
  headingId?: string;
}) {
  const i18n = useTranslation();
  const { t } = i18n;
  const generatedId = useId();
  const headingId = givenHeadingId ?? generatedId;
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
      setError(messageOf(e, t("common.somethingWrong")));
    }
    setPending(false);
  };

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = description.trim();
    if (!text) return setDescriptionError(t("apiKeys.describe"));
    if (text.length > DESCRIPTION_MAX) return setDescriptionError(t("apiKeys.tooLong", { max: DESCRIPTION_MAX }));
    const ms = EXPIRY_CHOICES.find((c) => c.id === expiry)?.ms ?? null;
    await run(t("apiKeys.createdStatus"), async () => {
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
      {keys && keys.length === 0 ? <p className="stack-hint">{t("apiKeys.none")}</p> : null}
      <ul className="stack-list" aria-label={title}>
        {(keys ?? []).map((k) => (
          <KeyItem key={k.id} apiKey={k} pending={pending} onRevoke={() => run(t("apiKeys.revokedStatus"), () => k.revoke())} />
        ))}
      </ul>
      <form className="stack-form" noValidate onSubmit={create} aria-label={t("apiKeys.createForm", { title })}>
        <Field
          label={t("apiKeys.description")}
          name="apiKeyDescription"
          value={description}
          maxLength={DESCRIPTION_MAX + 1}
          hint={t("apiKeys.descriptionHint")}
          error={descriptionError}
          onChange={(e) => {
            setDescription(e.target.value);
            setDescriptionError(null);
          }}
        />
        <div className="stack-field">
          <label htmlFor={expiryId}>{t("apiKeys.expiresAfter")}</label>
          <select id={expiryId} className="stack-input" value={expiry} onChange={(e) => setExpiry(e.target.value as ExpiryId)}>
            {EXPIRY_CHOICES.map((c) => (
              <option key={c.id} value={c.id}>
                {expiryLabel(c, i18n)}
              </option>
            ))}
          </select>
        </div>
        <div className="stack-actions">
          <button className="stack-button" type="submit" disabled={pending}>
            {t("apiKeys.create")}
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
  const { t } = useTranslation();
  if (!enabled) return null;
  return <ApiKeysPanel owner={user} title={t("apiKeys.heading")} hint={t("apiKeys.userHint")} headingId="stack-api-keys-heading" />;
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
  const { t } = useTranslation();
  if (!enabled) return null;
  return <ApiKeysPanel owner={team} title={t("apiKeys.teamHeading")} hint={t("apiKeys.teamHint")} hideWhenForbidden headingLevel={3} />;
}
