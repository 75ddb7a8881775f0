/**
 * The event reads of enterprise SSO management (issue 31, ADMIN): a connection's last SCIM calls
 * (its scim.* events, found by `data.connection_id`). The team's whole "Enterprise SSO" log is the
 * ordinary event list filtered by team (services/events.ts).
 */
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../client";
import { events } from "../schema";
import type { EventRow } from "./events";

/** The newest `limit` events of `types` about one connection, newest first. */
export function listConnectionEvents(
  db: Db,
  projectId: string,
  connectionId: string,
  types: readonly string[],
  limit: number,
): Promise<EventRow[]> {
  return db
    .select()
    .from(events)
    .where(
      and(
        eq(events.projectId, projectId),
        inArray(events.type, [...types]),
        sql`json_extract(${events.data}, '$.connection_id') = ${connectionId}`,
      ),
    )
    .orderBy(desc(events.createdAt), desc(events.id))
    .limit(limit)
    .all();
}
