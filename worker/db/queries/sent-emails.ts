/** Data access for the email log (every email sent, failed or queued). */
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../client";
import { sentEmails } from "../schema";

export type SentEmailRow = typeof sentEmails.$inferSelect;

export async function insertSentEmail(db: Db, row: typeof sentEmails.$inferInsert): Promise<void> {
  await db.insert(sentEmails).values(row);
}

export async function finishSentEmail(
  db: Db,
  id: string,
  outcome: { status: "sent" | "failed"; error: string | null; sentAt: number | null },
): Promise<void> {
  await db.update(sentEmails).set(outcome).where(eq(sentEmails.id, id));
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
