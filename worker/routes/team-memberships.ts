/** /team-memberships: add (back end), remove (back end, or a client with $remove_members) and leave. */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../lib/hono-env";
import { unwrap } from "../lib/problems";
import { teamActor, userParam, uuidParam } from "../lib/team-request";
import { parseBody } from "../lib/validate";
import { requireAccess } from "../middleware/require";
import { addMember, removeMember } from "../services/team-memberships";

export const teamMembershipsRoutes = new Hono<AppEnv>()
  .post("/:teamId/:userId", async (c) => {
    const auth = requireAccess(c, "server", "admin");
    const teamId = uuidParam(c, "teamId");
    const userId = userParam(c, auth);
    await parseBody(c, z.strictObject({}));
    unwrap(await addMember(c.get("deps"), auth.project, teamId, userId));
    return c.json({ team_id: teamId, user_id: userId }, 201);
  })
  .delete("/:teamId/:userId", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const teamId = uuidParam(c, "teamId");
    const userId = userParam(c, auth);
    unwrap(await removeMember(c.get("deps"), auth.project.id, teamActor(auth), teamId, userId));
    return c.json({ success: true });
  });
