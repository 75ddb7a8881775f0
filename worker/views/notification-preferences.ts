/** The wire view of a user's notification preference. */
import type { NotificationPreferenceJson } from "@doorman/shared/wire-misc";
import type { Preference } from "../services/notification-preferences";

export function notificationPreferenceView(p: Preference): NotificationPreferenceJson {
  return {
    notification_category_id: p.category.id,
    notification_category_name: p.category.name,
    enabled: p.enabled,
    can_disable: p.category.canDisable,
  };
}
