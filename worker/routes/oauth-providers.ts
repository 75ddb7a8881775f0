/** /oauth-providers: a user's linked provider accounts (read, update, unlink; the server also creates). */

import { KnownError } from "@doorman/shared/known-errors";
import { listSchema, oauthProviderSchema, successSchema } from "@doorman/shared/wire";
import { z } from "zod";
import { unwrap } from "../http/problems";
import { ownUserId } from "../http/request";
import { addRoute, defineRoute, routeGroup } from "../http/route";
import { userIdOrMe } from "../http/validate";
import {
  createLinkedAccount,
  getLinkedAccount,
  listLinkedAccounts,
  removeLinkedAccount,
  updateLinkedAccount,
} from "../services/oauth/linked-accounts";
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

const accountParams = z.strictObject({ userId: z.string(), id: z.string() });
const NOT_FOUND = { status: 404, description: "OAuth provider not found for this user (plain text)." } as const;
const OWN_USER_ERRORS = ["CANNOT_GET_OWN_USER_WITHOUT_USER", "INSUFFICIENT_ACCESS_TYPE", "USER_NOT_FOUND"] as const;

const list = defineRoute({
  method: "get",
  path: "/",
  summary: "Linked provider accounts of a user (clients: their own), or of the whole project (back ends)",
  access: ["client", "server", "admin"],
  query: z.strictObject({ user_id: userIdOrMe.optional() }),
  response: listSchema(oauthProviderSchema),
  errors: OWN_USER_ERRORS,
});

const create = defineRoute({
  method: "post",
  path: "/",
  summary: "Link a provider account to a user",
  access: ["server", "admin"],
  body: createBody,
  response: { status: 201, description: "The linked account", schema: oauthProviderSchema },
  // A provider the project does not configure is the wire's plain 404 ("OAuth provider … not found or not configured").
  errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "USER_NOT_FOUND", "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN"],
});

const getOne = defineRoute({
  method: "get",
  path: "/{userId}/{id}",
  summary: "One linked provider account",
  access: ["client", "server", "admin"],
  params: accountParams,
  response: [oauthProviderSchema, NOT_FOUND],
  errors: OWN_USER_ERRORS,
});

const update = defineRoute({
  method: "patch",
  path: "/{userId}/{id}",
  summary: "Update a linked provider account (clients: its sign-in and connection flags only)",
  access: ["client", "server", "admin"],
  params: accountParams,
  body: z.strictObject(serverUpdate),
  clientBody: z.strictObject(clientUpdate),
  response: [oauthProviderSchema, NOT_FOUND],
  errors: [...OWN_USER_ERRORS, "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN"],
});

const remove = defineRoute({
  method: "delete",
  path: "/{userId}/{id}",
  summary: "Unlink a provider account",
  access: ["client", "server", "admin"],
  params: accountParams,
  response: [successSchema, NOT_FOUND],
  errors: OWN_USER_ERRORS,
});

export const oauthProvidersRoutes = routeGroup();
addRoute(oauthProvidersRoutes, list, async (c, { auth, query }) => {
  // A client lists its own links only; listing the whole project is for back ends.
  if (query.user_id === undefined && auth.type === "client")
    throw new KnownError("INSUFFICIENT_ACCESS_TYPE", { actual_access_type: "client", allowed_access_types: ["server", "admin"] });
  const userId = query.user_id === undefined ? undefined : ownUserId(auth, query.user_id);
  const { accounts } = unwrap(await listLinkedAccounts(c.get("deps"), auth.project, userId));
  return c.json({ items: accounts.map((a) => oauthProviderView(a, isServer(auth))), is_paginated: false });
});
addRoute(oauthProvidersRoutes, create, async (c, { auth, body }) => {
  const { account } = unwrap(
    await createLinkedAccount(c.get("deps"), auth.project, ownUserId(auth, body.user_id), {
      providerConfigId: body.provider_config_id,
      accountId: body.account_id,
      email: body.email ?? null,
      allowSignIn: body.allow_sign_in,
      allowConnectedAccounts: body.allow_connected_accounts,
    }),
  );
  return c.json(oauthProviderView(account, true), 201);
});
addRoute(oauthProvidersRoutes, getOne, async (c, { auth, params }) => {
  const { account } = unwrap(await getLinkedAccount(c.get("deps"), auth.project, ownUserId(auth, params.userId), params.id));
  return c.json(oauthProviderView(account, isServer(auth)));
});
addRoute(oauthProvidersRoutes, update, async (c, { auth, params, body }) => {
  const userId = ownUserId(auth, params.userId);
  const { account } = unwrap(
    await updateLinkedAccount(c.get("deps"), auth.project, userId, params.id, {
      allowSignIn: body.allow_sign_in,
      allowConnectedAccounts: body.allow_connected_accounts,
      email: body.email,
      accountId: body.account_id,
    }),
  );
  return c.json(oauthProviderView(account, isServer(auth)));
});
addRoute(oauthProvidersRoutes, remove, async (c, { auth, params }) => {
  unwrap(await removeLinkedAccount(c.get("deps"), auth.project, ownUserId(auth, params.userId), params.id));
  return c.json({ success: true });
});
