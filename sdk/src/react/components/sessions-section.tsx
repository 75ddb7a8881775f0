/**
 * Account settings: active sessions (current first), with last use and place, each revocable but
 * the current one, and "Sign out of all other devices".
 */
import { useCallback, useEffect, useState } from "react";
import { isLocalAddress } from "../../shared/local-address";
import type { ReactSession, ReactUser } from "../app-types";
import { useTranslation } from "../i18n/context";
import type { Translate } from "../i18n/translator";
import { messageOf } from "./code-messages";
import { FormAlert } from "./field";

function place(geo: Record<string, unknown> | null, t: Translate): string {
  if (!geo) return "";
  // A loopback or private address has no place: a development server would invent one.
  if (isLocalAddress(typeof geo.ip === "string" ? geo.ip : null)) return t("sessions.localPlace", { ip: String(geo.ip) });
  const parts = [geo.cityName, geo.regionCode, geo.countryCode].filter((p) => typeof p === "string" && p);
  const ip = typeof geo.ip === "string" && geo.ip !== "unknown" ? geo.ip : "";
  return [parts.join(", "), ip].filter(Boolean).join(" · ");
}

/**
 * @example
 * <SessionsSection user={useUser({ or: "redirect" })} />
 */
export function SessionsSection({ user }: { user: ReactUser }) {
  const { t, formatDateTime } = useTranslation();
  const fail = (e: unknown) => setError(messageOf(e, t("common.somethingWrong")));
  const [sessions, setSessions] = useState<ReactSession[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const reload = useCallback(() => {
    user.listSessions().then(
      (list) =>
        setSessions(
          [...list].sort(
            (a, b) => Number(b.isCurrentSession) - Number(a.isCurrentSession) || b.createdAt.getTime() - a.createdAt.getTime(),
          ),
        ),
      (e: unknown) => setError(messageOf(e)),
    );
  }, [user]);
  useEffect(reload, [reload]);
  const others = (sessions ?? []).filter((s) => !s.isCurrentSession).length;
  const signOutOthers = () => {
    setError(null);
    user.revokeOtherSessions().then(() => {
      setNotice(t("sessions.signedOutOthers"));
      reload();
    }, fail);
  };

  return (
    <section className="stack-section" aria-labelledby="stack-sessions-heading">
      <h2 id="stack-sessions-heading">{t("sessions.heading")}</h2>
      <FormAlert message={error} />
      <ul className="stack-list" aria-label={t("sessions.listLabel")}>
        {(sessions ?? []).map((s) => (
          <li key={s.id} className="stack-list-item">
            <span>
              {s.isCurrentSession ? <span className="stack-badge">{t("sessions.thisDevice")}</span> : null}{" "}
              {s.isImpersonation ? <span className="stack-badge stack-badge-warn">{t("sessions.impersonation")}</span> : null}
              <span className="stack-hint">
                {t("sessions.signedIn", { date: formatDateTime(s.createdAt) })}
                {s.lastUsedAt ? ` · ${t("sessions.lastUsed", { date: formatDateTime(s.lastUsedAt) })}` : ""}
                {place(s.geoInfo, t) ? ` · ${place(s.geoInfo, t)}` : ""}
              </span>
            </span>
            {s.isCurrentSession ? null : (
              <button
                type="button"
                className="stack-button stack-danger stack-small"
                onClick={() => user.revokeSession(s.id).then(reload, fail)}
              >
                {t("common.revoke")}
              </button>
            )}
          </li>
        ))}
      </ul>
      {notice ? (
        <p className="stack-hint" role="status">
          {notice}
        </p>
      ) : null}
      {others > 0 ? (
        <button type="button" className="stack-button stack-danger" onClick={signOutOthers}>
          {t("sessions.signOutOthers")}
        </button>
      ) : null}
    </section>
  );
}
