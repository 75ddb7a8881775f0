/** Data access for email drafts (issue 14): one project's drafts, newest edit first. */
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../client";
import { emailDrafts } from "../schema";

export type EmailDraftRow = typeof emailDrafts.$inferSelect;

export function listEmailDraftRows(db: Db, projectId: string): Promise<EmailDraftRow[]> {
  return db
    .select()
    .from(emailDrafts)
    .where(eq(emailDrafts.projectId, projectId))
    .orderBy(desc(emailDrafts.updatedAt), desc(emailDrafts.id))
    .limit(500)
    .all();
}

export async function findEmailDraft(db: Db, projectId: string, id: string): Promise<EmailDraftRow | null> {
  return (
    (await db
      .select()
      .from(emailDrafts)
      .where(and(eq(emailDrafts.projectId, projectId), eq(emailDrafts.id, id)))
      .get()) ?? null
  );
}

export async function insertEmailDraft(db: Db, row: EmailDraftRow): Promise<void> {
  await db.insert(emailDrafts).values(row);
}

/** Updates a draft of the project; false when there is none. */
export async function updateEmailDraft(
  db: Db,
  projectId: string,
  id: string,
  patch: Partial<Omit<EmailDraftRow, "id" | "projectId" | "createdAt">>,
): Promise<boolean> {
  const rows = await db
    .update(emailDrafts)
    .set(patch)
    .where(and(eq(emailDrafts.projectId, projectId), eq(emailDrafts.id, id)))
    .returning({ id: emailDrafts.id });
  return rows.length > 0;
}

export async function deleteEmailDraft(db: Db, projectId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(emailDrafts)
    .where(and(eq(emailDrafts.projectId, projectId), eq(emailDrafts.id, id)))
    .returning({ id: emailDrafts.id });
  return rows.length > 0;
}
