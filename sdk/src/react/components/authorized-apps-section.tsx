/**
 * Account settings: the third-party apps the user let into their account through the project's
 * OpenID provider (issue 30), each with what it may do, when it was allowed and last used, and
 * Revoke after a confirmation (its consent is forgotten and its tokens stop working at once).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { ReactAuthorizedApp, ReactUser } from "../app-types";
import { useTranslation } from "../i18n/context";
import { messageOf } from "./code-messages";
import { FormAlert } from "./field";

function AppItem({ app, onRevoke }: { app: ReactAuthorizedApp; onRevoke: () => Promise<void> }) {
  const { t, formatDate } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState(false);
  const cancel = useRef<HTMLButtonElement>(null);
  const revoke = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  // Focus follows the question (never on first render): onto "Cancel" when it appears, back onto "Revoke" when it goes.
  useEffect(() => {
    if (asked.current) (confirming ? cancel : revoke).current?.focus({ preventScroll: true });
  }, [confirming]);
  const used = app.lastUsedAt ? formatDate(app.lastUsedAt) : t("apps.never");
  return (
    <li className="stack-list-item" data-testid="authorized-app">
      <span>
        <strong>{app.client.name}</strong>{" "}
        {app.scopes.map((scope) => (
          <span key={scope} className="stack-badge" style={{ marginInlineEnd: 4 }}>
            {scope}
          </span>
        ))}
        <span className="stack-hint" style={{ display: "block" }}>
          {t("apps.used", { date: formatDate(app.authorizedAt), used })}
        </span>
      </span>
      {confirming ? (
        <span className="stack-actions">
          <span className="stack-hint">{t("apps.confirm", { app: app.client.name })}</span>
          <button
            type="button"
            className="stack-button stack-danger stack-small"
            disabled={pending}
            onClick={() => {
              setPending(true);
              onRevoke().finally(() => setPending(false));
            }}
          >
            {t("common.revoke")}
          </button>
          <button ref={cancel} type="button" className="stack-button stack-secondary stack-small" onClick={() => setConfirming(false)}>
            {t("common.cancel")}
          </button>
        </span>
      ) : (
        <button
          ref={revoke}
          type="button"
          className="stack-button stack-danger stack-small"
          onClick={() => {
            asked.current = true;
            setConfirming(true);
          }}
        >
          {t("common.revoke")}
        </button>
      )}
    </li>
  );
}

/**
 * @example
 * <AuthorizedAppsSection user={useUser({ or: "redirect" })} />
 */
export function AuthorizedAppsSection({ user }: { user: ReactUser }) {
  const { t } = useTranslation();
  const [apps, setApps] = useState<ReactAuthorizedApp[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const reload = useCallback(() => {
    user.listAuthorizedApps().then(setApps, (e: unknown) => setError(messageOf(e)));
  }, [user]);
  useEffect(reload, [reload]);

  const revoke = async (app: ReactAuthorizedApp) => {
    setError(null);
    setStatus(null);
    try {
      await user.revokeAuthorizedApp(app.client.clientId);
      setStatus(t("apps.revoked", { app: app.client.name }));
      reload();
    } catch (e) {
      setError(messageOf(e, t("common.somethingWrong")));
    }
  };

  return (
    <section className="stack-section" aria-labelledby="stack-authorized-apps-heading">
      <h2 id="stack-authorized-apps-heading">{t("apps.heading")}</h2>
      <FormAlert message={error} />
      {apps && apps.length === 0 ? <p className="stack-hint">{t("apps.none")}</p> : null}
      <ul className="stack-list" aria-labelledby="stack-authorized-apps-heading">
        {(apps ?? []).map((app) => (
          <AppItem key={app.client.clientId} app={app} onRevoke={() => revoke(app)} />
        ))}
      </ul>
      <p className="stack-hint" role="status" aria-live="polite">
        {status ?? ""}
      </p>
    </section>
  );
}
