/** Data access for webhook endpoints: a project's list, one by id, create, update, delete, and the disabling rule's counters. */
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../client";
import { webhookEndpoints } from "../schema";

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type NewWebhookEndpoint = typeof webhookEndpoints.$inferInsert;
export type WebhookEndpointPatch = Partial<
  Pick<NewWebhookEndpoint, "url" | "description" | "eventTypes" | "disabled" | "disabledReason" | "disabledAt" | "consecutiveFailures">
>;

export async function insertWebhookEndpoint(db: Db, row: NewWebhookEndpoint): Promise<WebhookEndpointRow> {
  const [created] = await db.insert(webhookEndpoints).values(row).returning();
  return created as WebhookEndpointRow;
}

/** Oldest first, as created. */
export function listWebhookEndpointRows(db: Db, projectId: string): Promise<WebhookEndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.projectId, projectId))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id))
    .all();
}

export async function findWebhookEndpoint(db: Db, projectId: string, endpointId: string): Promise<WebhookEndpointRow | null> {
  const row = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.projectId, projectId), eq(webhookEndpoints.id, endpointId)))
    .get();
  return row ?? null;
}

export async function updateWebhookEndpointRow(
  db: Db,
  projectId: string,
  endpointId: string,
  patch: WebhookEndpointPatch,
  now: number,
): Promise<WebhookEndpointRow | null> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ ...patch, updatedAt: now })
    .where(and(eq(webhookEndpoints.projectId, projectId), eq(webhookEndpoints.id, endpointId)))
    .returning();
  return row ?? null;
}

/** Replaces an endpoint's sealed signing secret (rotation), for a batch; the next statement can check changes(). */
export function replaceWebhookSecretStatement(db: Db, projectId: string, endpointId: string, secretSealed: string, now: number) {
  return db
    .update(webhookEndpoints)
    .set({ secretSealed, updatedAt: now })
    .where(and(eq(webhookEndpoints.projectId, projectId), eq(webhookEndpoints.id, endpointId)));
}

export async function deleteWebhookEndpointRow(db: Db, projectId: string, endpointId: string): Promise<boolean> {
  const gone = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.projectId, projectId), eq(webhookEndpoints.id, endpointId)))
    .returning({ id: webhookEndpoints.id });
  return gone.length > 0;
}

/**
 * The enabled endpoints that take an event of `type` created at `eventAt` (an empty filter takes
 * every type; an endpoint created after the event never receives it, as with Svix).
 */
export function listEndpointsForEvent(db: Db, projectId: string, type: string, eventAt: number): Promise<WebhookEndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.projectId, projectId),
        eq(webhookEndpoints.disabled, false),
        sql`${webhookEndpoints.createdAt} <= ${eventAt}`,
        sql`(json_array_length(${webhookEndpoints.eventTypes}) = 0 OR EXISTS (SELECT 1 FROM json_each(${webhookEndpoints.eventTypes}) WHERE value = ${type}))`,
      ),
    )
    .all();
}

/** Whether the project has an enabled endpoint at all (requests skip the queue otherwise). */
export async function hasEnabledWebhookEndpoint(db: Db, projectId: string): Promise<boolean> {
  const row = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.projectId, projectId), eq(webhookEndpoints.disabled, false)))
    .limit(1)
    .get();
  return row !== undefined;
}

/** A delivery succeeded: the failure streak starts again. */
export async function resetEndpointFailures(db: Db, endpointId: string): Promise<void> {
  await db
    .update(webhookEndpoints)
    .set({ consecutiveFailures: 0 })
    .where(and(eq(webhookEndpoints.id, endpointId), sql`${webhookEndpoints.consecutiveFailures} <> 0`));
}

/**
 * A delivery exhausted its retries: one more in the streak, and the endpoint is disabled (with the
 * reason) when the streak reaches `threshold`. One statement, so concurrent consumers cannot lose a count.
 */
export async function countEndpointFailure(
  db: Db,
  endpointId: string,
  threshold: number,
  reason: string,
  now: number,
): Promise<{ disabled: boolean } | null> {
  const streak = sql`${webhookEndpoints.consecutiveFailures} + 1`;
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      consecutiveFailures: streak,
      disabled: sql`CASE WHEN ${streak} >= ${threshold} THEN 1 ELSE ${webhookEndpoints.disabled} END`,
      disabledReason: sql`CASE WHEN ${streak} >= ${threshold} AND ${webhookEndpoints.disabled} = 0 THEN ${reason} ELSE ${webhookEndpoints.disabledReason} END`,
      disabledAt: sql`CASE WHEN ${streak} >= ${threshold} AND ${webhookEndpoints.disabled} = 0 THEN ${now} ELSE ${webhookEndpoints.disabledAt} END`,
    })
    .where(eq(webhookEndpoints.id, endpointId))
    .returning({ disabled: webhookEndpoints.disabled });
  return row ?? null;
}
