/** Data access for the email log (every email sent, failed or queued). */
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../client";
import { sentEmails } from "../schema";

export type SentEmailRow = typeof sentEmails.$inferSelect;

/** Writes the log row of a delivery attempt: created on the first attempt, its outcome replaced on later ones. */
export async function recordSentEmail(db: Db, row: typeof sentEmails.$inferInsert): Promise<void> {
  await db
    .insert(sentEmails)
    .values(row)
    .onConflictDoUpdate({
      target: sentEmails.id,
      set: {
        subject: row.subject,
        html: row.html,
        text: row.text,
        status: row.status,
        error: row.error ?? null,
        sentAt: row.sentAt ?? null,
      },
    });
}

export async function listSentEmails(db: Db, projectId: string, limit: number): Promise<SentEmailRow[]> {
  return db
    .select()
    .from(sentEmails)
    .where(eq(sentEmails.projectId, projectId))
    .orderBy(desc(sentEmails.createdAt), desc(sentEmails.id))
    .limit(limit)
    .all();
}

export async function findSentEmail(db: Db, projectId: string, id: string): Promise<SentEmailRow | null> {
  return (
    (await db
      .select()
      .from(sentEmails)
      .where(and(eq(sentEmails.projectId, projectId), eq(sentEmails.id, id)))
      .get()) ?? null
  );
}
