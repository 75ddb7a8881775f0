/** Account settings: email notification categories (required ones shown but not switchable). */
import { useCallback, useEffect, useState } from "react";
import type { ReactNotificationCategory, ReactUser } from "../app-types";
import { useTranslation } from "../i18n/context";
import { messageOf } from "./code-messages";
import { FormAlert } from "./field";

/**
 * @example
 * <NotificationsSection user={useUser({ or: "redirect" })} />
 */
export function NotificationsSection({ user }: { user: ReactUser }) {
  const { t } = useTranslation();
  const [categories, setCategories] = useState<ReactNotificationCategory[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(() => {
    user.listNotificationCategories().then(setCategories, (e: unknown) => setError(messageOf(e)));
  }, [user]);
  useEffect(reload, [reload]);

  return (
    <section className="stack-section" aria-labelledby="stack-notifications-heading">
      <h2 id="stack-notifications-heading">{t("notifications.heading")}</h2>
      <FormAlert message={error} />
      {(categories ?? []).map((c) => (
        <label key={c.id} className="stack-checkbox">
          <input
            type="checkbox"
            checked={c.enabled}
            disabled={!c.canDisable}
            onChange={(e) =>
              c.setEnabled(e.target.checked).then(reload, (err: unknown) => setError(messageOf(err, t("common.somethingWrong"))))
            }
          />{" "}
          {t(c.canDisable ? "notifications.category" : "notifications.required", { name: c.name })}
        </label>
      ))}
    </section>
  );
}
