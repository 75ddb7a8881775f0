/** /connected-accounts: a user's connected provider accounts and provider access tokens for them. */

import { connectedAccountSchema, listSchema } from "@doorman/shared/wire";
import { providerAccessTokenSchema } from "@doorman/shared/wire-misc";
import { z } from "zod";
import { unwrap } from "../http/problems";
import { ownUserId } from "../http/request";
import { addRoute, defineRoute, routeGroup } from "../http/route";
import { userIdOrMe } from "../http/validate";
import { connectionAccessToken, listConnections } from "../services/oauth/connected-accounts";
import { connectedAccountView } from "../views/oauth-accounts";

const tokenBody = z.strictObject({ scope: z.string().max(2048).optional() });
const OWN_USER_ERRORS = ["CANNOT_GET_OWN_USER_WITHOUT_USER", "INSUFFICIENT_ACCESS_TYPE", "USER_NOT_FOUND"] as const;
const TOKEN_ERRORS = [
  ...OWN_USER_ERRORS,
  "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED",
  "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER",
  "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE",
  "OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS",
] as const;

const list = defineRoute({
  method: "get",
  path: "/{userId}",
  summary: "A user's connected accounts (clients: their own, as `me` or by id)",
  access: ["client", "server", "admin"],
  params: z.strictObject({ userId: userIdOrMe }),
  response: listSchema(connectedAccountSchema),
  errors: OWN_USER_ERRORS,
});

const providerToken = defineRoute({
  method: "post",
  path: "/{userId}/{provider}/access-token",
  summary: "A provider access token from any of the user's accounts with that provider",
  access: ["client", "server", "admin"],
  params: z.strictObject({ userId: userIdOrMe, provider: z.string() }),
  body: tokenBody,
  response: { status: 201, description: "A provider access token", schema: providerAccessTokenSchema },
  errors: TOKEN_ERRORS,
});

const accountToken = defineRoute({
  method: "post",
  path: "/{userId}/{provider}/{accountId}/access-token",
  summary: "A provider access token from one connected account",
  access: ["client", "server", "admin"],
  params: z.strictObject({ userId: userIdOrMe, provider: z.string(), accountId: z.string() }),
  body: tokenBody,
  response: { status: 201, description: "A provider access token", schema: providerAccessTokenSchema },
  errors: TOKEN_ERRORS,
});

export const connectedAccountsRoutes = routeGroup();
addRoute(connectedAccountsRoutes, list, async (c, { auth, params }) => {
  const { accounts } = unwrap(await listConnections(c.get("deps"), auth.project, ownUserId(auth, params.userId)));
  return c.json({ items: accounts.map(connectedAccountView), is_paginated: false });
});
addRoute(connectedAccountsRoutes, providerToken, async (c, { auth, params, body }) => {
  const userId = ownUserId(auth, params.userId);
  const result = unwrap(await connectionAccessToken(c.get("deps"), auth.project, userId, params.provider, undefined, body.scope));
  return c.json({ access_token: result.accessToken }, 201);
});
addRoute(connectedAccountsRoutes, accountToken, async (c, { auth, params, body }) => {
  const userId = ownUserId(auth, params.userId);
  const result = unwrap(await connectionAccessToken(c.get("deps"), auth.project, userId, params.provider, params.accountId, body.scope));
  return c.json({ access_token: result.accessToken }, 201);
});
