/** /internal/events: the project's event log for its owners, newest first, filtered and cursor-paged (admin). */

import { EVENT_AREAS } from "@doorman/shared/event-types";
import { KnownError } from "@doorman/shared/known-errors";
import { eventListSchema } from "@doorman/shared/wire-events";
import { z } from "zod";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { listEvents } from "../../services/events";
import { eventView } from "../../views/events";

const AREA_NAMES = EVENT_AREAS.map((a) => a.area) as [string, ...string[]];

const millis = z.coerce.number().int().min(0).max(8_640_000_000_000_000);

const list = defineRoute({
  method: "get",
  path: "/",
  summary: "The project's event log, newest first: filter by type or area, user, team and time; page with the cursor",
  access: ["admin"],
  query: z.strictObject({
    type: z.string().max(64).optional(),
    /** Every type of one area ("Sign-in and sessions", "Teams", …: @doorman/shared/event-types); ignored when `type` is given. */
    area: z.enum(AREA_NAMES).optional(),
    user_id: z.string().max(64).optional(),
    team_id: z.string().max(64).optional(),
    since_millis: millis.optional(),
    until_millis: millis.optional(),
    cursor: z.string().max(128).optional(),
    limit: z.coerce.number().int().min(1).max(200).optional(),
  }),
  response: eventListSchema,
});

export const internalEventsRoutes = routeGroup();
addRoute(internalEventsRoutes, list, async (c, { auth, query: q }) => {
  const page = await listEvents(c.get("deps"), auth.project.id, {
    type: q.type ?? EVENT_AREAS.find((a) => a.area === q.area)?.types,
    userId: q.user_id,
    teamId: q.team_id,
    since: q.since_millis,
    until: q.until_millis,
    cursor: q.cursor,
    limit: q.limit ?? 50,
  });
  if (!page) throw new KnownError("SCHEMA_ERROR", { message: "cursor is not a cursor of this list." });
  return c.json({ items: page.items.map(eventView), is_paginated: true as const, pagination: { next_cursor: page.nextCursor } });
});
