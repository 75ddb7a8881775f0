/**
 * Data access for webhook deliveries and their attempts: create (once per endpoint and event),
 * claim for sending (compare-and-set with a lease), record an attempt with the outcome, list a
 * page with attempts, resend, and the sweeps the cron runs.
 */
import { and, desc, eq, inArray, lt, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../client";
import { webhookAttempts, webhookDeliveries } from "../schema";

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type NewWebhookDelivery = typeof webhookDeliveries.$inferInsert;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;

/** Inserts the deliveries; one that exists already (same endpoint and event) is skipped. Returns those created. */
export async function insertDeliveries(db: Db, rows: NewWebhookDelivery[]): Promise<WebhookDeliveryRow[]> {
  if (rows.length === 0) return [];
  return db.insert(webhookDeliveries).values(rows).onConflictDoNothing().returning();
}

/**
 * Takes a delivery for one attempt: only a pending one that is due, or a "sending" one whose lease
 * ran out (its consumer died). Two consumers never send the same attempt.
 */
export async function claimDelivery(db: Db, deliveryId: string, now: number, leaseMs: number): Promise<WebhookDeliveryRow | null> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: "sending", nextAttemptAt: now + leaseMs, updatedAt: now })
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        inArray(webhookDeliveries.status, ["pending", "sending"]),
        sql`coalesce(${webhookDeliveries.nextAttemptAt}, 0) <= ${now}`,
      ),
    )
    .returning();
  return row ?? null;
}

export type AttemptOutcome = {
  attempt: typeof webhookAttempts.$inferInsert;
  /** The delivery's state after this attempt. */
  status: "pending" | "succeeded" | "failed";
  nextAttemptAt: number | null;
};

/** The attempt and the delivery's new state, in one batch. */
export async function recordAttempt(db: Db, deliveryId: string, outcome: AttemptOutcome, now: number): Promise<void> {
  await db.batch([
    db.insert(webhookAttempts).values(outcome.attempt),
    db
      .update(webhookDeliveries)
      .set({
        status: outcome.status,
        nextAttemptAt: outcome.nextAttemptAt,
        attempts: sql`${webhookDeliveries.attempts} + 1`,
        updatedAt: now,
      })
      .where(eq(webhookDeliveries.id, deliveryId)),
  ]);
}

export async function findDelivery(db: Db, projectId: string, deliveryId: string): Promise<WebhookDeliveryRow | null> {
  const row = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.projectId, projectId), eq(webhookDeliveries.id, deliveryId)))
    .get();
  return row ?? null;
}

/** Resend: the delivery is due again now, with a fresh retry schedule (its attempts so far stay in the log). */
export async function requeueDelivery(db: Db, projectId: string, deliveryId: string, now: number): Promise<WebhookDeliveryRow | null> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: "pending", nextAttemptAt: now, attempts: 0, updatedAt: now })
    .where(and(eq(webhookDeliveries.projectId, projectId), eq(webhookDeliveries.id, deliveryId)))
    .returning();
  return row ?? null;
}

export type DeliveryFilter = {
  projectId: string;
  endpointId?: string;
  /** The (created_at, id) of the last delivery of the previous page. */
  before?: { createdAt: number; id: string };
  limit: number;
};

/** Newest first, keyset-paged on (created_at, id). */
export function listDeliveryRows(db: Db, f: DeliveryFilter): Promise<WebhookDeliveryRow[]> {
  const where: SQL[] = [eq(webhookDeliveries.projectId, f.projectId)];
  if (f.endpointId) where.push(eq(webhookDeliveries.endpointId, f.endpointId));
  if (f.before) {
    const b = f.before;
    where.push(
      or(
        lt(webhookDeliveries.createdAt, b.createdAt),
        and(eq(webhookDeliveries.createdAt, b.createdAt), lt(webhookDeliveries.id, b.id)),
      ) as SQL,
    );
  }
  return db
    .select()
    .from(webhookDeliveries)
    .where(and(...where))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(f.limit)
    .all();
}

/** The attempts of these deliveries, oldest first. */
export function listAttemptRows(db: Db, deliveryIds: string[]): Promise<WebhookAttemptRow[]> {
  if (deliveryIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.deliveryId, deliveryIds))
    .orderBy(webhookAttempts.attemptedAt, webhookAttempts.id)
    .all();
}

/** Deliveries still due whose queue message never came back (past due by more than `graceMs`). */
export function listOverdueDeliveries(db: Db, now: number, graceMs: number, limit: number): Promise<{ id: string }[]> {
  return db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(inArray(webhookDeliveries.status, ["pending", "sending"]), sql`${webhookDeliveries.nextAttemptAt} < ${now - graceMs}`))
    .limit(limit)
    .all();
}

/** Deletes finished deliveries (and their attempts) older than `before`. */
export async function pruneDeliveryRows(db: Db, before: number): Promise<number> {
  const gone = await db
    .delete(webhookDeliveries)
    .where(and(inArray(webhookDeliveries.status, ["succeeded", "failed"]), lt(webhookDeliveries.createdAt, before)))
    .returning({ id: webhookDeliveries.id });
  return gone.length;
}
