/** /teams: teams of a project (wire-protocol.md §2 "Team", §7 "Teams"). */
import { Hono } from "hono";
import { z } from "zod";
import { StatusError } from "../lib/errors";
import type { AppEnv } from "../lib/hono-env";
import { unwrap } from "../lib/problems";
import { meOr, teamActor, uuidParam } from "../lib/team-request";
import { jsonValue, parseBody, parseQuery, userIdOrMe } from "../lib/validate";
import { requireAccess, requireUser } from "../middleware/require";
import type { RequestAuth } from "../services/request-auth";
import { createTeam, deleteTeam, getTeam, listTeams, updateTeam } from "../services/teams";
import { teamClientView, teamServerView } from "../views/teams";

const displayName = z.string().min(1).max(256);
// Clients may set an http(s) URL or an inline image; back ends any string they trust.
const clientImage = z
  .string()
  .max(500_000)
  .refine((v) => /^https?:\/\//i.test(v) || /^data:image\/[a-z+.-]+;base64,/i.test(v), "must be an http(s) URL or a base64 image data URL")
  .nullable();
const serverImage = z.string().max(500_000).nullable();

const clientFields = { display_name: displayName, profile_image_url: clientImage, client_metadata: jsonValue };
const serverFields = {
  ...clientFields,
  profile_image_url: serverImage,
  client_read_only_metadata: jsonValue,
  server_metadata: jsonValue,
};

function partial<T extends z.ZodRawShape>(shape: T) {
  return z.strictObject(shape).partial();
}

const view = (auth: RequestAuth) => (auth.type === "client" ? teamClientView : teamServerView);

type TeamBody = {
  display_name?: string;
  profile_image_url?: string | null;
  client_metadata?: unknown;
  client_read_only_metadata?: unknown;
  server_metadata?: unknown;
};

function toPatch(body: TeamBody) {
  return {
    displayName: body.display_name,
    profileImageUrl: body.profile_image_url,
    clientMetadata: body.client_metadata,
    clientReadOnlyMetadata: body.client_read_only_metadata,
    serverMetadata: body.server_metadata,
  };
}

export const teamsRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const q = parseQuery(c, z.strictObject({ user_id: userIdOrMe.optional() }));
    if (auth.type === "client") {
      const me = requireUser(auth).user.user.id;
      // An end user sees only their own teams.
      if (!q.user_id || meOr(auth, q.user_id) !== me)
        throw new StatusError(
          403,
          'Client can only list teams for their own user. user_id must be either "me" or the ID of the current user',
        );
    }
    const rows = await listTeams(c.get("deps"), auth.project.id, q.user_id ? meOr(auth, q.user_id) : undefined);
    return c.json({ items: rows.map(view(auth)), is_paginated: false });
  })
  .post("/", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const fields = auth.type === "client" ? clientFields : serverFields;
    const body: TeamBody & { creator_user_id?: string } = await parseBody(
      c,
      partial(fields).extend({ display_name: displayName, creator_user_id: userIdOrMe.optional() }),
    );
    const creator = body.creator_user_id === undefined ? undefined : meOr(auth, body.creator_user_id);
    const input = { ...toPatch(body), displayName: body.display_name as string, creatorUserId: creator };
    const { team } = unwrap(await createTeam(c.get("deps"), auth.project, teamActor(auth), input));
    return c.json(view(auth)(team), 201);
  })
  .get("/:teamId", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const { team } = unwrap(await getTeam(c.get("deps"), auth.project.id, teamActor(auth), uuidParam(c, "teamId")));
    return c.json(view(auth)(team));
  })
  .patch("/:teamId", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const teamId = uuidParam(c, "teamId");
    const body: TeamBody = await parseBody(c, partial(auth.type === "client" ? clientFields : serverFields));
    const { team } = unwrap(await updateTeam(c.get("deps"), auth.project.id, teamActor(auth), teamId, toPatch(body)));
    return c.json(view(auth)(team));
  })
  .delete("/:teamId", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    unwrap(await deleteTeam(c.get("deps"), auth.project.id, teamActor(auth), uuidParam(c, "teamId")));
    return c.json({ success: true });
  });
