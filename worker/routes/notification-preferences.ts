/** /emails/notification-preference/{me|userId}[/{categoryId}]: list and change a user's choices. */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../lib/hono-env";
import { unwrap } from "../lib/problems";
import { parseBody } from "../lib/validate";
import { requireAccess, resolveUserId } from "../middleware/require";
import { listPreferences, type Preference, setPreference } from "../services/notification-preferences";

const view = (p: Preference) => ({
  notification_category_id: p.category.id,
  notification_category_name: p.category.name,
  enabled: p.enabled,
  can_disable: p.category.canDisable,
});

export const notificationPreferencesRoutes = new Hono<AppEnv>()
  .get("/:userId", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const prefs = await listPreferences(c.get("deps"), resolveUserId(auth, c.req.param("userId")));
    return c.json({ items: prefs.map(view), is_paginated: false });
  })
  .patch("/:userId/:categoryId", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const body = await parseBody(c, z.strictObject({ enabled: z.boolean() }));
    const result = unwrap(
      await setPreference(c.get("deps"), resolveUserId(auth, c.req.param("userId")), c.req.param("categoryId"), body.enabled),
    );
    return c.json(view(result.preference));
  });
