/** /connected-accounts: a user's connected provider accounts and provider access tokens for them. */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../lib/hono-env";
import { unwrap } from "../lib/problems";
import { parseBody } from "../lib/validate";
import { requireAccess, resolveUserId } from "../middleware/require";
import { connectionAccessToken, listConnections } from "../services/connected-accounts";
import { connectedAccountView } from "../views/oauth-accounts";

const tokenBody = z.strictObject({ scope: z.string().max(2048).optional() });

export const connectedAccountsRoutes = new Hono<AppEnv>()
  .get("/:userId", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const { accounts } = unwrap(await listConnections(c.get("deps"), auth.project, resolveUserId(auth, c.req.param("userId"))));
    return c.json({ items: accounts.map(connectedAccountView), is_paginated: false });
  })
  .post("/:userId/:provider/access-token", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const userId = resolveUserId(auth, c.req.param("userId"));
    const body = await parseBody(c, tokenBody);
    const result = unwrap(await connectionAccessToken(c.get("deps"), auth.project, userId, c.req.param("provider"), undefined, body.scope));
    return c.json({ access_token: result.accessToken }, 201);
  })
  .post("/:userId/:provider/:accountId/access-token", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const userId = resolveUserId(auth, c.req.param("userId"));
    const body = await parseBody(c, tokenBody);
    const result = unwrap(
      await connectionAccessToken(c.get("deps"), auth.project, userId, c.req.param("provider"), c.req.param("accountId"), body.scope),
    );
    return c.json({ access_token: result.accessToken }, 201);
  });
