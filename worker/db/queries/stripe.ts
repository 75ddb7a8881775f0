/**
 * Data access for Stripe (issue 15): the project's connected account, and the webhook events
 * already handled (stripe_events), which make the webhook idempotent per event id.
 */
import { and, eq, isNull } from "drizzle-orm";
import { forgetAuthRows } from "../auth-row-cache";
import type { Db } from "../client";
import { projects, stripeEvents } from "../schema";

/**
 * Records that an event is being handled; false when its id was recorded before (a redelivery).
 * The insert is the guard: two concurrent deliveries of one event cannot both get true.
 */
export async function recordStripeEvent(
  db: Db,
  row: { eventId: string; projectId: string | null; type: string; receivedAt: number },
): Promise<boolean> {
  const inserted = await db.insert(stripeEvents).values(row).onConflictDoNothing().returning({ eventId: stripeEvents.eventId });
  return inserted.length === 1;
}

/** Forgets an event whose handling failed, so Stripe's next delivery of it is handled again. */
export async function forgetStripeEvent(db: Db, eventId: string): Promise<void> {
  await db.delete(stripeEvents).where(eq(stripeEvents.eventId, eventId));
}

export async function findStripeEvent(db: Db, eventId: string): Promise<{ eventId: string; type: string } | null> {
  return (
    (await db
      .select({ eventId: stripeEvents.eventId, type: stripeEvents.type })
      .from(stripeEvents)
      .where(eq(stripeEvents.eventId, eventId))
      .get()) ?? null
  );
}

/**
 * Stores the project's connected account only if it has none yet, and answers the one stored
 * (a concurrent setup's account wins; the caller then uses that one).
 */
export async function setStripeAccountIfUnset(db: Db, projectId: string, accountId: string): Promise<string | null> {
  const updated = await db
    .update(projects)
    .set({ stripeAccountId: accountId })
    .where(and(eq(projects.id, projectId), isNull(projects.stripeAccountId)))
    .returning({ stripeAccountId: projects.stripeAccountId });
  forgetAuthRows();
  if (updated[0]) return updated[0].stripeAccountId;
  const row = await db.select({ stripeAccountId: projects.stripeAccountId }).from(projects).where(eq(projects.id, projectId)).get();
  return row?.stripeAccountId ?? null;
}

/** The project whose connected account this is; null when no project has it. */
export async function findProjectIdByStripeAccount(db: Db, accountId: string): Promise<string | null> {
  const row = await db.select({ id: projects.id }).from(projects).where(eq(projects.stripeAccountId, accountId)).get();
  return row?.id ?? null;
}
