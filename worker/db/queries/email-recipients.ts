/**
 * Who an email to users goes to: each user's display name, primary email and choice for one
 * notification category (null: none stored, the category's default applies), and the sign-in
 * history the "new sign-in" email checks.
 */
import { and, asc, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../client";
import { contactChannels, events, notificationPreferences, users } from "../schema";

export type EmailRecipientRow = { userId: string; displayName: string | null; email: string | null; preference: boolean | null };

/** D1 binds at most 100 parameters per statement: ids go in chunks below that. */
const CHUNK = 90;

function recipientsQuery(db: Db, categoryId: string) {
  return db
    .select({ userId: users.id, displayName: users.displayName, email: contactChannels.value, preference: notificationPreferences.enabled })
    .from(users)
    .leftJoin(
      contactChannels,
      and(eq(contactChannels.userId, users.id), eq(contactChannels.isPrimary, true), eq(contactChannels.type, "email")),
    )
    .leftJoin(
      notificationPreferences,
      and(eq(notificationPreferences.userId, users.id), eq(notificationPreferences.categoryId, categoryId)),
    );
}

/** The given users of the project (ids of no user of the project are left out). */
export async function findEmailRecipients(db: Db, projectId: string, userIds: string[], categoryId: string): Promise<EmailRecipientRow[]> {
  const rows: EmailRecipientRow[] = [];
  for (let i = 0; i < userIds.length; i += CHUNK) {
    const ids = userIds.slice(i, i + CHUNK);
    rows.push(
      ...(await recipientsQuery(db, categoryId)
        .where(and(eq(users.projectId, projectId), inArray(users.id, ids)))
        .all()),
    );
  }
  return rows;
}

/** Every user of the project, oldest first, at most `limit`. */
export function listAllEmailRecipients(db: Db, projectId: string, categoryId: string, limit: number): Promise<EmailRecipientRow[]> {
  return recipientsQuery(db, categoryId)
    .where(eq(users.projectId, projectId))
    .orderBy(asc(users.signedUpAt), asc(users.id))
    .limit(limit)
    .all();
}

/**
 * The user's sign-ins before `before`: how many, and whether one came from this user agent and
 * country. One query on the events_project_user_time index (the user's own events only).
 */
export async function signInHistory(
  db: Db,
  projectId: string,
  userId: string,
  device: { userAgent: string | null; countryCode: string | null },
  before: number,
): Promise<{ count: number; seenDevice: boolean }> {
  const same = and(
    device.userAgent === null ? isNull(events.userAgent) : eq(events.userAgent, device.userAgent),
    device.countryCode === null ? isNull(events.countryCode) : eq(events.countryCode, device.countryCode),
  );
  const row = await db
    .select({ count: sql<number>`count(*)`, seen: sql<number>`coalesce(max(${same}), 0)` })
    .from(events)
    .where(
      and(eq(events.projectId, projectId), eq(events.userId, userId), eq(events.type, "sign_in.succeeded"), lt(events.createdAt, before)),
    )
    .get();
  return { count: Number(row?.count ?? 0), seenDevice: Number(row?.seen ?? 0) === 1 };
}
