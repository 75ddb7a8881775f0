/** Data access for the assistant: a thread's messages (read, append, replace) and the per-day token use. */
import { and, asc, eq, gte, sql } from "drizzle-orm";
import type { Db } from "../client";
import { aiChatMessages, aiUsage } from "../schema";

export type ThreadKey = { projectId: string; ownerKey: string; threadId: string };

const inThread = (k: ThreadKey) =>
  and(eq(aiChatMessages.projectId, k.projectId), eq(aiChatMessages.ownerKey, k.ownerKey), eq(aiChatMessages.threadId, k.threadId));

/** The thread's messages, oldest first. */
export async function threadMessages(db: Db, key: ThreadKey): Promise<unknown[]> {
  const rows = await db
    .select({ message: aiChatMessages.message })
    .from(aiChatMessages)
    .where(inThread(key))
    .orderBy(asc(aiChatMessages.id))
    .all();
  return rows.map((r) => r.message);
}

/** Keeps only the newest `keep` messages of the thread (a thread is bounded). */
function pruneStatement(db: Db, key: ThreadKey, keep: number) {
  return db
    .delete(aiChatMessages)
    .where(
      and(
        inThread(key),
        sql`${aiChatMessages.id} NOT IN (SELECT id FROM ai_chat_messages WHERE project_id = ${key.projectId} AND owner_key = ${key.ownerKey} AND thread_id = ${key.threadId} ORDER BY id DESC LIMIT ${keep})`,
      ),
    );
}

/** Appends messages in order, in one batch with the pruning, so a reader sees all of them or none. */
export async function appendThreadMessages(db: Db, key: ThreadKey, messages: unknown[], nowMs: number, keep: number): Promise<void> {
  if (messages.length === 0) return;
  await db.batch([
    db.insert(aiChatMessages).values(messages.map((message) => ({ ...key, message, createdAt: nowMs }))),
    pruneStatement(db, key, keep),
  ]);
}

/** Replaces the thread's messages (an empty list clears it), atomically. */
export async function replaceThreadMessages(db: Db, key: ThreadKey, messages: unknown[], nowMs: number): Promise<void> {
  const clear = db.delete(aiChatMessages).where(inThread(key));
  if (messages.length === 0) {
    await clear;
    return;
  }
  await db.batch([clear, db.insert(aiChatMessages).values(messages.map((message) => ({ ...key, message, createdAt: nowMs })))]);
}

/** Counts one model call and its tokens into the project's day (one atomic upsert). */
export async function recordAiUsage(db: Db, projectId: string, day: string, promptTokens: number, completionTokens: number): Promise<void> {
  await db
    .insert(aiUsage)
    .values({ projectId, day, requests: 1, promptTokens, completionTokens })
    .onConflictDoUpdate({
      target: [aiUsage.projectId, aiUsage.day],
      set: {
        requests: sql`${aiUsage.requests} + 1`,
        promptTokens: sql`${aiUsage.promptTokens} + ${promptTokens}`,
        completionTokens: sql`${aiUsage.completionTokens} + ${completionTokens}`,
      },
    });
}

/** The project's use since `fromDay` (inclusive). */
export async function aiUsageSince(
  db: Db,
  projectId: string,
  fromDay: string,
): Promise<{ requests: number; promptTokens: number; completionTokens: number }> {
  const row = await db
    .select({
      requests: sql<number>`coalesce(sum(${aiUsage.requests}), 0)`,
      promptTokens: sql<number>`coalesce(sum(${aiUsage.promptTokens}), 0)`,
      completionTokens: sql<number>`coalesce(sum(${aiUsage.completionTokens}), 0)`,
    })
    .from(aiUsage)
    .where(and(eq(aiUsage.projectId, projectId), gte(aiUsage.day, fromDay)))
    .get();
  return { requests: row?.requests ?? 0, promptTokens: row?.promptTokens ?? 0, completionTokens: row?.completionTokens ?? 0 };
}
