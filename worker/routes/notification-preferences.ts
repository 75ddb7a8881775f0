/** /emails/notification-preference/{me|userId}[/{categoryId}]: list and change a user's choices. */

import { listSchema } from "@doorman/shared/wire";
import { notificationPreferenceSchema } from "@doorman/shared/wire-misc";
import { z } from "zod";
import { unwrap } from "../http/problems";
import { ownUserId } from "../http/request";
import { addRoute, defineRoute, routeGroup } from "../http/route";
import { listPreferences, setPreference } from "../services/notification-preferences";
import { notificationPreferenceView } from "../views/notification-preferences";

const list = defineRoute({
  method: "get",
  path: "/{userId}",
  summary: "A user's notification preferences (clients: their own, as `me` or by id)",
  access: ["client", "server", "admin"],
  params: z.strictObject({ userId: z.string() }),
  response: listSchema(notificationPreferenceSchema),
  errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "INSUFFICIENT_ACCESS_TYPE", "USER_NOT_FOUND"],
});

const update = defineRoute({
  method: "patch",
  path: "/{userId}/{categoryId}",
  summary: "Enable or disable a notification category for a user",
  access: ["client", "server", "admin"],
  params: z.strictObject({ userId: z.string(), categoryId: z.string() }),
  body: z.strictObject({ enabled: z.boolean() }),
  description: "404 (plain text) for an unknown category; 400 (plain text) to disable a category that cannot be disabled.",
  response: [notificationPreferenceSchema, { status: 404, description: "Notification category not found (plain text)." }],
  errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "INSUFFICIENT_ACCESS_TYPE", "USER_NOT_FOUND"],
});

export const notificationPreferencesRoutes = routeGroup();
addRoute(notificationPreferencesRoutes, list, async (c, { auth, params }) => {
  const { preferences } = unwrap(await listPreferences(c.get("deps"), auth.project.id, ownUserId(auth, params.userId)));
  return c.json({ items: preferences.map(notificationPreferenceView), is_paginated: false });
});
addRoute(notificationPreferencesRoutes, update, async (c, { auth, params, body }) => {
  const result = unwrap(
    await setPreference(c.get("deps"), auth.project.id, ownUserId(auth, params.userId), params.categoryId, body.enabled),
  );
  return c.json(notificationPreferenceView(result.preference));
});
