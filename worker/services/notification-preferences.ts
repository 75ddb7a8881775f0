/** Notification categories (defined here) and each user's choices (stored only when changed). */
import { eq } from "drizzle-orm";
import { findUserRecord } from "../db/queries/users";
import { notificationPreferences } from "../db/schema";
import type { Deps } from "./deps";
import { fail, type Problem } from "./result";

export type NotificationCategory = { id: string; name: string; canDisable: boolean; defaultEnabled: boolean };

export const NOTIFICATION_CATEGORIES: readonly NotificationCategory[] = [
  // Sign-in codes, resets and verification: a user cannot opt out of mail the account needs.
  { id: "7bb82d33-2f54-4a3d-9d23-82739e0d66ef", name: "Transactional", canDisable: false, defaultEnabled: true },
  // The reference's ids and defaults: Marketing is on until the user turns it off (every Marketing email
  // carries a one-click unsubscribe link); collecting consent before sending it is the project's part.
  { id: "4f6f8873-3d04-46bd-8bef-18338b1a1b4c", name: "Marketing", canDisable: true, defaultEnabled: true },
];

export type Preference = { category: NotificationCategory; enabled: boolean };

export async function listPreferences(
  deps: Deps,
  projectId: string,
  userId: string,
): Promise<{ ok: true; preferences: Preference[] } | Problem<"user_not_found">> {
  // Why: the user must exist in this project; another project's user id (or none) is "not found",
  // never a list of defaults that would confirm nothing yet answer for anyone.
  if (!(await findUserRecord(deps.db, projectId, userId))) return fail("user_not_found");
  const rows = await deps.db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, userId)).all();
  const chosen = new Map(rows.map((r) => [r.categoryId, r.enabled]));
  const preferences = NOTIFICATION_CATEGORIES.map((category) => ({
    category,
    enabled: category.canDisable ? (chosen.get(category.id) ?? category.defaultEnabled) : true,
  }));
  return { ok: true, preferences };
}

export async function setPreference(
  deps: Deps,
  projectId: string,
  userId: string,
  categoryId: string,
  enabled: boolean,
): Promise<{ ok: true; preference: Preference } | Problem<"user_not_found" | "category_not_found" | "category_required">> {
  // Why: a preference row may only be written for a user of this project.
  if (!(await findUserRecord(deps.db, projectId, userId))) return fail("user_not_found");
  const category = NOTIFICATION_CATEGORIES.find((c) => c.id === categoryId);
  if (!category) return fail("category_not_found");
  if (!enabled && !category.canDisable) return fail("category_required");
  await deps.db
    .insert(notificationPreferences)
    .values({ userId, categoryId, enabled })
    .onConflictDoUpdate({ target: [notificationPreferences.userId, notificationPreferences.categoryId], set: { enabled } });
  return { ok: true, preference: { category, enabled } };
}
