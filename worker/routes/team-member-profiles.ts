/** /team-member-profiles: a member's per-team profile (display name and image). */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../lib/hono-env";
import { unwrap } from "../lib/problems";
import { meOr, teamActor, userParam, uuidParam } from "../lib/team-request";
import { parseBody, parseQuery, userIdOrMe } from "../lib/validate";
import { requireAccess } from "../middleware/require";
import { readProjectConfig } from "../services/project-config";
import { getProfile, listProfiles, updateProfile } from "../services/team-memberships";
import { memberProfileView } from "../views/team-members";

const profileBody = z.strictObject({
  display_name: z.string().max(256).nullable().optional(),
  profile_image_url: z.string().max(500_000).nullable().optional(),
});

export const teamMemberProfilesRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const q = parseQuery(c, z.strictObject({ team_id: z.uuid().optional(), user_id: userIdOrMe.optional() }));
    const filter = { teamId: q.team_id, userId: q.user_id === undefined ? undefined : meOr(auth, q.user_id) };
    const { profiles } = unwrap(await listProfiles(c.get("deps"), auth.project.id, teamActor(auth), filter));
    const config = readProjectConfig(auth.project.config);
    return c.json({ items: profiles.map((p) => memberProfileView(p, config, auth.type !== "client")), is_paginated: false });
  })
  .get("/:teamId/:userId", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const teamId = uuidParam(c, "teamId");
    const { profile } = unwrap(await getProfile(c.get("deps"), auth.project.id, teamActor(auth), teamId, userParam(c, auth)));
    return c.json(memberProfileView(profile, readProjectConfig(auth.project.config), auth.type !== "client"));
  })
  .patch("/:teamId/:userId", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const teamId = uuidParam(c, "teamId");
    const userId = userParam(c, auth);
    const body = await parseBody(c, profileBody);
    const patch = { displayName: body.display_name, profileImageUrl: body.profile_image_url };
    const { profile } = unwrap(await updateProfile(c.get("deps"), auth.project.id, teamActor(auth), teamId, userId, patch));
    return c.json(memberProfileView(profile, readProjectConfig(auth.project.config), auth.type !== "client"));
  });
