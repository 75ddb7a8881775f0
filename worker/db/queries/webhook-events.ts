/** Data access for the event rows webhooks are built from: one event by id, and the cron's sweep of events never dispatched. */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../client";
import { events, webhookDeliveries, webhookEndpoints } from "../schema";
import type { EventRow } from "./events";

export async function findEventRow(db: Db, projectId: string, eventId: string): Promise<EventRow | null> {
  const row = await db
    .select()
    .from(events)
    .where(and(eq(events.projectId, projectId), eq(events.id, eventId)))
    .get();
  return row ?? null;
}

/**
 * Committed webhook events (of `types`, created in [since, until]) that an enabled endpoint should
 * have received but that have no delivery for it: their enqueue was lost (the worker stopped
 * between the commit and the queue send). A team creator's membership (`data.creator`) sends no
 * webhook (team.created stands for it), so it is never owed one. At most `limit` distinct events.
 */
export async function listUndispatchedEvents(
  db: Db,
  types: readonly string[],
  since: number,
  until: number,
  limit: number,
): Promise<{ id: string; projectId: string }[]> {
  return db
    .selectDistinct({ id: events.id, projectId: events.projectId })
    .from(events)
    .innerJoin(
      webhookEndpoints,
      and(
        eq(webhookEndpoints.projectId, events.projectId),
        eq(webhookEndpoints.disabled, false),
        sql`${webhookEndpoints.createdAt} <= ${events.createdAt}`,
        sql`(json_array_length(${webhookEndpoints.eventTypes}) = 0 OR EXISTS (SELECT 1 FROM json_each(${webhookEndpoints.eventTypes}) WHERE value = ${events.type}))`,
      ),
    )
    .leftJoin(webhookDeliveries, and(eq(webhookDeliveries.endpointId, webhookEndpoints.id), eq(webhookDeliveries.eventId, events.id)))
    .where(
      and(
        inArray(events.type, [...types]),
        sql`${events.createdAt} BETWEEN ${since} AND ${until}`,
        sql`${webhookDeliveries.id} IS NULL`,
        sql`coalesce(json_extract(${events.data}, '$.creator'), 0) != 1`,
      ),
    )
    .limit(limit)
    .all();
}
