/**
 * /users/{user_id}/activity: a user's own recent security events (sign-ins with device and place,
 * password changes, new passkeys, revoked sessions…), newest first. A Doorman extension: the
 * reference has no end-user activity view. Clients read their own ("me"); server and admin any user.
 */

import { USER_ACTIVITY_TYPES } from "@doorman/shared/activity-types";
import { KnownError } from "@doorman/shared/known-errors";
import { type ActivityItemJson, activityListSchema } from "@doorman/shared/wire-activity";
import { z } from "zod";
import type { EventRow } from "../db/queries/events";
import { findUserRecord } from "../db/queries/users";
import { ownUserId } from "../http/request";
import { addRoute, defineRoute, routeGroup } from "../http/route";
import { userIdOrMe } from "../http/validate";
import { type EventType, listEvents } from "../services/events";

// Only the user's own security events. Impersonation, permission, team and config events are what
// owners and admins did; owners see those in the console's event log, never the end user here.
const ACTIVITY_TYPES: readonly EventType[] = USER_ACTIVITY_TYPES;

const list = defineRoute({
  method: "get",
  path: "/{userId}/activity",
  summary: "A user's recent security activity, newest first (Doorman extension)",
  description:
    "The user's own security events: sign-ins (succeeded and failed), sign-outs, revoked sessions, a reused refresh token (the session was ended), password changes and resets, verified emails, two-factor turned on or off, passkeys added, OAuth accounts linked, API keys created and revoked. Each has the address, user agent and country of the request. Impersonation and owner actions are not listed (owners see them in the event log). Clients read their own (`me`); `cursor` is `pagination.next_cursor` of the page before.",
  access: ["client", "server", "admin"],
  params: z.strictObject({ userId: userIdOrMe }),
  query: z.strictObject({
    cursor: z.string().max(128).optional(),
    limit: z.coerce.number().int().min(1).max(100).optional(),
  }),
  response: activityListSchema,
  errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "INSUFFICIENT_ACCESS_TYPE", "USER_NOT_FOUND"],
});

function activityView(row: EventRow): ActivityItemJson {
  return {
    id: row.id,
    type: row.type as ActivityItemJson["type"],
    created_at_millis: row.createdAt,
    // The address is shown to the user whose account it is (and to the project's back end), never to other users.
    ip: row.ip,
    user_agent: row.userAgent,
    country_code: row.countryCode,
    data: (row.data as Record<string, unknown> | null) ?? null,
  };
}

export const userActivityRoutes = routeGroup();
addRoute(userActivityRoutes, list, async (c, { auth, params, query }) => {
  const deps = c.get("deps");
  // A client may read its own activity only: another user's id is INSUFFICIENT_ACCESS_TYPE, as on every /users/{id} route.
  const userId = ownUserId(auth, params.userId);
  if (auth.type !== "client" && !(await findUserRecord(deps.db, auth.project.id, userId))) throw new KnownError("USER_NOT_FOUND");
  const page = await listEvents(deps, auth.project.id, { type: ACTIVITY_TYPES, userId, cursor: query.cursor, limit: query.limit ?? 20 });
  if (!page) throw new KnownError("SCHEMA_ERROR", { message: "cursor is not a cursor of this list." });
  return c.json({ items: page.items.map(activityView), is_paginated: true as const, pagination: { next_cursor: page.nextCursor } });
});
