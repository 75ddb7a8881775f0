/** Data access for contact channels (a user's emails; the primary one is the user's primary_email). */
import { and, asc, eq, ne } from "drizzle-orm";
import type { Db } from "../client";
import { contactChannels } from "../schema";
import { insertEventIfChangedStatement, type NewEvent } from "./events";

export type ContactChannelRow = typeof contactChannels.$inferSelect;

export function listChannelsOfUser(db: Db, projectId: string, userId: string): Promise<ContactChannelRow[]> {
  return db
    .select()
    .from(contactChannels)
    .where(and(eq(contactChannels.projectId, projectId), eq(contactChannels.userId, userId)))
    .orderBy(asc(contactChannels.createdAt), asc(contactChannels.id))
    .all();
}

export async function findChannel(db: Db, projectId: string, userId: string, id: string): Promise<ContactChannelRow | null> {
  return (
    (await db
      .select()
      .from(contactChannels)
      .where(and(eq(contactChannels.projectId, projectId), eq(contactChannels.userId, userId), eq(contactChannels.id, id)))
      .get()) ?? null
  );
}

export function insertChannelStatement(db: Db, row: typeof contactChannels.$inferInsert) {
  return db.insert(contactChannels).values(row);
}

export function updateChannelStatement(db: Db, id: string, patch: Partial<typeof contactChannels.$inferInsert>) {
  return db.update(contactChannels).set(patch).where(eq(contactChannels.id, id));
}

/** Clears the primary flag on the user's other channels (run in a batch with the new primary). */
export function unsetOtherPrimariesStatement(db: Db, userId: string, keepId: string) {
  return db
    .update(contactChannels)
    .set({ isPrimary: false })
    .where(and(eq(contactChannels.userId, userId), eq(contactChannels.isPrimary, true), ne(contactChannels.id, keepId)));
}

export async function deleteChannel(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(contactChannels).where(eq(contactChannels.id, id)).returning({ id: contactChannels.id });
  return rows.length > 0;
}

/** Marks a channel verified, but only if it still holds the email the code was sent to. */
/** Marks the channel verified if it still holds `value`, with its event in the same batch (written only then). */
export async function markChannelVerified(db: Db, id: string, value: string, event: NewEvent): Promise<boolean> {
  const [rows] = await db.batch([
    db
      .update(contactChannels)
      .set({ isVerified: true })
      .where(and(eq(contactChannels.id, id), eq(contactChannels.value, value)))
      .returning({ id: contactChannels.id }),
    insertEventIfChangedStatement(db, event),
  ]);
  return rows.length > 0;
}
