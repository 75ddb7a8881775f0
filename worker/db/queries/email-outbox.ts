/**
 * Data access for the email outbox (schema.ts emailOutbox). Every state change is a compare-and-set
 * on `status` (and `is_paused`), so two consumers that see the same row never both send it.
 */
import { and, desc, eq, inArray, lt, lte, or, sql } from "drizzle-orm";
import type { Db } from "../client";
import { emailOutbox } from "../schema";

export type OutboxRow = typeof emailOutbox.$inferSelect;
export type NewOutboxRow = typeof emailOutbox.$inferInsert;

/** The statuses a consumer may pick up when due. */
const PICKABLE = ["queued", "scheduled"];

export function insertOutboxStatement(db: Db, row: NewOutboxRow) {
  return db.insert(emailOutbox).values(row);
}

/** Inserts the row unless its id exists; true for the one caller that inserted it. */
export async function insertOutboxRowIfAbsent(db: Db, row: NewOutboxRow): Promise<boolean> {
  const inserted = await db
    .insert(emailOutbox)
    .values(row)
    .onConflictDoNothing({ target: emailOutbox.id })
    .returning({ id: emailOutbox.id });
  return inserted.length > 0;
}

export async function findOutboxRow(db: Db, projectId: string, id: string): Promise<OutboxRow | null> {
  return (
    (await db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.projectId, projectId), eq(emailOutbox.id, id)))
      .get()) ?? null
  );
}

/** A page, newest first (created_at desc, then id desc), starting at the row `from` (the cursor: a page's first row). */
export async function listOutboxRows(
  db: Db,
  projectId: string,
  options: { statuses?: string[]; limit: number; from?: { createdAt: number; id: string } },
): Promise<OutboxRow[]> {
  const where = [eq(emailOutbox.projectId, projectId)];
  if (options.statuses) where.push(inArray(emailOutbox.status, options.statuses));
  if (options.from) {
    const { createdAt, id } = options.from;
    where.push(or(lt(emailOutbox.createdAt, createdAt), and(eq(emailOutbox.createdAt, createdAt), lte(emailOutbox.id, id)))!);
  }
  return db
    .select()
    .from(emailOutbox)
    .where(and(...where))
    .orderBy(desc(emailOutbox.createdAt), desc(emailOutbox.id))
    .limit(options.limit)
    .all();
}

/**
 * Claims a due row for rendering and sending: only a queued or scheduled row that is not paused and
 * whose time (and retry time) has come. Null when another consumer has it, or it is not due.
 */
export async function claimOutboxRow(db: Db, id: string, now: number): Promise<OutboxRow | null> {
  const rows = await db
    .update(emailOutbox)
    .set({ status: "rendering", startedRenderingAt: now, updatedAt: now })
    .where(
      and(
        eq(emailOutbox.id, id),
        inArray(emailOutbox.status, PICKABLE),
        eq(emailOutbox.isPaused, false),
        lte(emailOutbox.scheduledAt, now),
        or(sql`${emailOutbox.nextSendRetryAt} IS NULL`, lte(emailOutbox.nextSendRetryAt, now)),
      ),
    )
    .returning();
  return rows[0] ?? null;
}

/** Moves a row on from `from` (the status the consumer holds it in); false when someone else moved it. */
export async function advanceOutboxRow(db: Db, id: string, from: string, set: Partial<NewOutboxRow>): Promise<boolean> {
  const rows = await db
    .update(emailOutbox)
    .set(set)
    .where(and(eq(emailOutbox.id, id), eq(emailOutbox.status, from)))
    .returning({ id: emailOutbox.id });
  return rows.length > 0;
}

/** An owner's change (PATCH): applied only while the row is still in the status it was read in; the row after, or null. */
export async function updateOutboxRowFrom(
  db: Db,
  projectId: string,
  id: string,
  from: string,
  set: Partial<NewOutboxRow>,
): Promise<OutboxRow | null> {
  const rows = await db
    .update(emailOutbox)
    .set(set)
    .where(and(eq(emailOutbox.projectId, projectId), eq(emailOutbox.id, id), eq(emailOutbox.status, from)))
    .returning();
  return rows[0] ?? null;
}

/** Queued or scheduled rows (not paused) that were due before `dueBefore`: the email monitor's count (status index). */
export async function countOverdueOutboxRows(db: Db, dueBefore: number): Promise<number> {
  const row = await db
    .select({ n: sql<number>`count(*)` })
    .from(emailOutbox)
    .where(
      and(
        inArray(emailOutbox.status, PICKABLE),
        lt(emailOutbox.scheduledAt, dueBefore),
        eq(emailOutbox.isPaused, false),
        or(sql`${emailOutbox.nextSendRetryAt} IS NULL`, lt(emailOutbox.nextSendRetryAt, dueBefore)),
      ),
    )
    .get();
  return row?.n ?? 0;
}

/**
 * Rows a crash or a lost queue message left behind: due queued/scheduled rows not touched for
 * `staleMs`, and rows stuck in rendering or sending since before `stuckBefore`.
 */
export async function listStrandedOutboxRows(
  db: Db,
  now: number,
  staleMs: number,
  stuckBefore: number,
  limit: number,
): Promise<Pick<OutboxRow, "id" | "projectId" | "status">[]> {
  return db
    .select({ id: emailOutbox.id, projectId: emailOutbox.projectId, status: emailOutbox.status })
    .from(emailOutbox)
    .where(
      or(
        and(
          inArray(emailOutbox.status, PICKABLE),
          eq(emailOutbox.isPaused, false),
          lte(emailOutbox.scheduledAt, now),
          or(sql`${emailOutbox.nextSendRetryAt} IS NULL`, lte(emailOutbox.nextSendRetryAt, now)),
          lt(emailOutbox.updatedAt, now - staleMs),
        ),
        and(inArray(emailOutbox.status, ["rendering", "sending"]), lt(emailOutbox.updatedAt, stuckBefore)),
      ),
    )
    .limit(limit)
    .all();
}
