/** /oauth-providers: a user's linked provider accounts (read, update, unlink; the server also creates). */
import { Hono } from "hono";
import { z } from "zod";
import { KnownError } from "../../sdk/src/shared/known-errors";
import type { AppEnv } from "../lib/hono-env";
import { unwrap } from "../lib/problems";
import { parseBody, parseQuery, userIdOrMe } from "../lib/validate";
import { requireAccess, resolveUserId } from "../middleware/require";
import {
  createLinkedAccount,
  getLinkedAccount,
  listLinkedAccounts,
  removeLinkedAccount,
  updateLinkedAccount,
} from "../services/oauth-providers";
import type { RequestAuth } from "../services/request-auth";
import { oauthProviderView } from "../views/oauth-accounts";

const accountId = z.string().min(1).max(512);
const email = z.email().max(320);

const clientUpdate = { allow_sign_in: z.boolean().optional(), allow_connected_accounts: z.boolean().optional() };
const serverUpdate = { ...clientUpdate, email: email.nullable().optional(), account_id: accountId.optional() };

const createBody = z.strictObject({
  user_id: userIdOrMe,
  provider_config_id: z.string().min(1).max(64),
  account_id: accountId,
  email: email.nullable().optional(),
  allow_sign_in: z.boolean(),
  allow_connected_accounts: z.boolean(),
});

/** The provider's account id is the server's business: clients see which providers, not which accounts. */
const isServer = (auth: RequestAuth) => auth.type !== "client";

export const oauthProvidersRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const q = parseQuery(c, z.strictObject({ user_id: userIdOrMe.optional() }));
    // A client lists its own links only; listing the whole project is for back ends.
    if (q.user_id === undefined && auth.type === "client")
      throw new KnownError("INSUFFICIENT_ACCESS_TYPE", { actual_access_type: "client", allowed_access_types: ["server", "admin"] });
    const userId = q.user_id === undefined ? undefined : resolveUserId(auth, q.user_id);
    const { accounts } = unwrap(await listLinkedAccounts(c.get("deps"), auth.project, userId));
    return c.json({ items: accounts.map((a) => oauthProviderView(a, isServer(auth))), is_paginated: false });
  })
  .post("/", async (c) => {
    const auth = requireAccess(c, "server", "admin");
    const body = await parseBody(c, createBody);
    const { account } = unwrap(
      await createLinkedAccount(c.get("deps"), auth.project, resolveUserId(auth, body.user_id), {
        providerConfigId: body.provider_config_id,
        accountId: body.account_id,
        email: body.email ?? null,
        allowSignIn: body.allow_sign_in,
        allowConnectedAccounts: body.allow_connected_accounts,
      }),
    );
    return c.json(oauthProviderView(account, true), 201);
  })
  .get("/:userId/:id", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const userId = resolveUserId(auth, c.req.param("userId"));
    const { account } = unwrap(await getLinkedAccount(c.get("deps"), auth.project, userId, c.req.param("id")));
    return c.json(oauthProviderView(account, isServer(auth)));
  })
  .patch("/:userId/:id", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const userId = resolveUserId(auth, c.req.param("userId"));
    const body = isServer(auth) ? await parseBody(c, z.strictObject(serverUpdate)) : await parseBody(c, z.strictObject(clientUpdate));
    const { account } = unwrap(
      await updateLinkedAccount(c.get("deps"), auth.project, userId, c.req.param("id"), {
        allowSignIn: body.allow_sign_in,
        allowConnectedAccounts: body.allow_connected_accounts,
        email: "email" in body ? (body.email as string | null | undefined) : undefined,
        accountId: "account_id" in body ? (body.account_id as string | undefined) : undefined,
      }),
    );
    return c.json(oauthProviderView(account, isServer(auth)));
  })
  .delete("/:userId/:id", async (c) => {
    const auth = requireAccess(c, "client", "server", "admin");
    const userId = resolveUserId(auth, c.req.param("userId"));
    unwrap(await removeLinkedAccount(c.get("deps"), auth.project, userId, c.req.param("id")));
    return c.json({ success: true });
  });
