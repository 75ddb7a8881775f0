/** /sso/events (issue 31, ADMIN): a team's "Enterprise SSO" events for its admins and the project's owners, newest first. */
import { KnownError } from "@doorman/shared/known-errors";
import { eventListSchema } from "@doorman/shared/wire-events";
import { z } from "zod";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { listTeamSsoEvents } from "../../services/sso/team-events";
import { eventView } from "../../views/events";
import { SSO_ACCESS_ERRORS, ssoManager } from "./manager";

const list = defineRoute({
  method: "get",
  path: "/",
  summary: "A team's enterprise SSO events (connections, domains, setup links, SSO sign-ins, SCIM), newest first, cursor-paged",
  access: ["client", "server", "admin"],
  query: z.strictObject({
    team_id: z.string().min(1).max(64),
    cursor: z.string().max(128).optional(),
    limit: z.coerce.number().int().min(1).max(200).optional(),
  }),
  response: eventListSchema,
  errors: [...SSO_ACCESS_ERRORS, "SCHEMA_ERROR"],
});

export const ssoEventsRoutes = routeGroup();
addRoute(ssoEventsRoutes, list, async (c, { auth, query: q }) => {
  const manager = await ssoManager(c, auth);
  const page = unwrap(
    await listTeamSsoEvents(c.get("deps"), auth.project.id, q.team_id, manager, { cursor: q.cursor, limit: q.limit ?? 50 }),
  ).value;
  if (!page) throw new KnownError("SCHEMA_ERROR", { message: "cursor is not a cursor of this list." });
  return c.json({ items: page.items.map(eventView), is_paginated: true as const, pagination: { next_cursor: page.nextCursor } });
});
