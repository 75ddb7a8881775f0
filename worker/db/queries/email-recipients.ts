/**
 * Who an email to users goes to: each user's display name, primary email and choice for one
 * notification category (null: none stored, the category's default applies), and the sign-in
 * history the "new sign-in" email checks.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../client";
import { contactChannels, notificationPreferences, users } from "../schema";

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

// `+type`: keeps SQLite off events_project_type_time, which it otherwise picks and which walks every sign-in of the
// project; on events_project_user_time (project, user, created_at) each EXISTS stops at its first hit among the
// user's own events. Raw SQL prepared per call: no query building on the sign-in's path.
const SIGN_IN_HISTORY = `SELECT
  EXISTS (SELECT 1 FROM events WHERE project_id = ?1 AND user_id = ?2 AND +type = 'sign_in.succeeded' AND created_at < ?3) AS signed_in,
  EXISTS (SELECT 1 FROM events WHERE project_id = ?1 AND user_id = ?2 AND +type = 'sign_in.succeeded' AND created_at < ?3
    AND user_agent IS ?4 AND country_code IS ?5 ORDER BY created_at DESC) AS seen`;

/**
 * The user's sign-ins before `before`: whether there was one, and whether one came from this user agent
 * and country. One query on the events_project_user_time index (the user's own events only).
 */
export async function signInHistory(
  db: Db,
  projectId: string,
  userId: string,
  device: { userAgent: string | null; countryCode: string | null },
  before: number,
): Promise<{ signedInBefore: boolean; seenDevice: boolean }> {
  const row = await db.$client
    .prepare(SIGN_IN_HISTORY)
    .bind(projectId, userId, before, device.userAgent, device.countryCode)
    .first<{ signed_in: number; seen: number }>();
  return { signedInBefore: Number(row?.signed_in ?? 0) === 1, seenDevice: Number(row?.seen ?? 0) === 1 };
}
