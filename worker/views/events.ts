/** An event row as the wire shows it. */
import type { EventJson } from "@doorman/shared/wire-events";
import type { EventRow } from "../db/queries/events";

export function eventView(row: EventRow): EventJson {
  return {
    id: row.id,
    type: row.type,
    created_at_millis: row.createdAt,
    actor: { type: row.actorType as EventJson["actor"]["type"], id: row.actorId },
    user_id: row.userId,
    team_id: row.teamId,
    ip: row.ip,
    user_agent: row.userAgent,
    country_code: row.countryCode,
    data: (row.data as Record<string, unknown> | null) ?? null,
  };
}
