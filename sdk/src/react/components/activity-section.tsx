/**
 * Account settings: "Recent activity", the user's own security events newest first (sign-ins with
 * device and place, password changes, passkeys, revoked sessions…), paged with "Show more".
 */
import { Fragment, type ReactNode, useCallback, useEffect, useState } from "react";
import { isLocalAddress } from "../../shared/local-address";
import type { ReactActivity, ReactUser } from "../app-types";
import { useTranslation } from "../i18n/context";
import { activityLabel, countryName, deviceOf, isWarning, relativeTime } from "./activity-labels";
import { messageOf } from "./code-messages";

const PAGE_SIZE = 20;

function ActivityItem({ entry, now }: { entry: ReactActivity; now: number }) {
  const { t, locale, formatDateTime } = useTranslation();
  const device = deviceOf(entry.userAgent, t);
  // A loopback or private address has no place: a development server would invent one.
  const place = isLocalAddress(entry.ip) ? t("common.localAddress") : countryName(entry.countryCode, locale);
  const where: { key: string; node: ReactNode }[] = [];
  if (device) where.push({ key: "device", node: device });
  else if (entry.userAgent) where.push({ key: "device", node: <span title={entry.userAgent}>{t("activity.unknownDevice")}</span> });
  if (place) where.push({ key: "place", node: place });
  if (entry.ip) where.push({ key: "ip", node: <span className="stack-activity-ip">{entry.ip}</span> });
  return (
    <li className="stack-activity-item">
      <span className="stack-activity-what">
        {isWarning(entry.type, entry.data) ? (
          <>
            <span className="stack-badge stack-badge-warn">{t("activity.checkThis")}</span>{" "}
          </>
        ) : null}
        {activityLabel(entry, t)}
      </span>
      <span className="stack-hint">
        <time dateTime={entry.createdAt.toISOString()} title={formatDateTime(entry.createdAt)}>
          {relativeTime(entry.createdAt, now, locale, t)}
        </time>
        {where.map((part) => (
          <Fragment key={part.key}>
            {" · "}
            {part.node}
          </Fragment>
        ))}
      </span>
    </li>
  );
}

/**
 * @example
 * <ActivitySection user={useUser({ or: "redirect" })} />
 */
export function ActivitySection({ user }: { user: ReactUser }) {
  const { t } = useTranslation();
  const [items, setItems] = useState<ReactActivity[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());

  // biome-ignore lint/correctness/useExhaustiveDependencies: a change of language (`t`) must not reload the list.
  const load = useCallback(
    async (after: string | null) => {
      setPending(true);
      setError(null);
      try {
        const page = await user.listActivity({ limit: PAGE_SIZE, ...(after ? { cursor: after } : {}) });
        setNow(Date.now());
        setItems((before) => (after && before ? [...before, ...page.items] : page.items));
        setCursor(page.nextCursor);
      } catch (e) {
        setError(messageOf(e, t("activity.loadFailed")));
      }
      setPending(false);
    },
    [user],
  );
  useEffect(() => {
    void load(null);
  }, [load]);

  return (
    <section className="stack-section" aria-labelledby="stack-activity-heading" aria-busy={pending}>
      <h2 id="stack-activity-heading">{t("activity.heading")}</h2>
      <p className="stack-hint" style={{ marginBottom: 8 }}>
        {t("activity.hint")}
      </p>
      {items && items.length > 0 ? (
        <ul className="stack-list" aria-labelledby="stack-activity-heading">
          {items.map((entry) => (
            <ActivityItem key={entry.id} entry={entry} now={now} />
          ))}
        </ul>
      ) : null}
      {items && items.length === 0 ? <p className="stack-hint">{t("activity.empty")}</p> : null}
      <p role="status" aria-live="polite" className="stack-hint">
        {pending ? t("activity.loading") : ""}
      </p>
      {error ? (
        <div className="stack-alert stack-activity-error" role="alert">
          <span>{error}</span>
          <button type="button" className="stack-button stack-secondary stack-small" onClick={() => void load(items ? cursor : null)}>
            {t("common.tryAgain")}
          </button>
        </div>
      ) : null}
      {cursor && !pending && !error ? (
        <button type="button" className="stack-button stack-secondary stack-small" onClick={() => void load(cursor)}>
          {t("activity.showMore")}
        </button>
      ) : null}
    </section>
  );
}
