/**
 * /internal/oauth-clients: the project's third-party apps (clients of its OpenID provider, issue 30)
 * for its owners: list, register (the secret answered once), read, change, delete (with its users'
 * consents and its grants), and rotate the secret.
 */
import { successSchema } from "@doorman/shared/wire";
import {
  oauthClientAdminSchema,
  oauthClientCreateSchema,
  oauthClientUpdateSchema,
  oauthClientWithSecretSchema,
} from "@doorman/shared/wire-oauth-provider";
import { z } from "zod";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import {
  createOAuthClient,
  deleteOAuthClient,
  getOAuthClient,
  listOAuthClientsOf,
  rotateOAuthClientSecret,
  updateOAuthClient,
} from "../../services/oauth-provider/client-registry";
import { oauthClientAdminView } from "../../views/oauth-clients";

// A client id is `dmc_…`, or a metadata document's URL (percent-encoded in the path).
const clientParams = z.strictObject({ clientId: z.string().min(1).max(2048) });

const listClients = defineRoute({
  method: "get",
  path: "/",
  summary: "The project's OAuth clients (third-party apps), oldest first",
  description: "Registered in the console, by RFC 7591 dynamic registration, and the cached client ID metadata documents.",
  access: ["admin"],
  response: z.object({ items: z.array(oauthClientAdminSchema), is_paginated: z.literal(false) }),
});
const createClient = defineRoute({
  method: "post",
  path: "/",
  summary: "Register an OAuth client; its secret (dmcs_…, confidential clients with a secret method) is answered this once",
  access: ["admin"],
  body: oauthClientCreateSchema,
  response: { status: 201, description: "The client and, once, its secret (null without one)", schema: oauthClientWithSecretSchema },
  errors: ["OAUTH_CLIENT_INVALID", "SCHEMA_ERROR"],
});
const getClient = defineRoute({
  method: "get",
  path: "/{clientId}",
  summary: "An OAuth client",
  access: ["admin"],
  params: clientParams,
  response: oauthClientAdminSchema,
  errors: ["OAUTH_CLIENT_NOT_FOUND"],
});
const updateClient = defineRoute({
  method: "patch",
  path: "/{clientId}",
  summary: "Change an OAuth client: name, redirect URIs, scopes, links, keys, or client_secret_basic ↔ client_secret_post",
  access: ["admin"],
  params: clientParams,
  body: oauthClientUpdateSchema,
  response: oauthClientAdminSchema,
  errors: ["OAUTH_CLIENT_NOT_FOUND", "OAUTH_CLIENT_INVALID", "SCHEMA_ERROR"],
});
const deleteClient = defineRoute({
  method: "delete",
  path: "/{clientId}",
  summary: "Delete an OAuth client, its users' consents and its grants (their tokens stop working)",
  access: ["admin"],
  params: clientParams,
  response: successSchema,
  errors: ["OAUTH_CLIENT_NOT_FOUND"],
});
const rotateSecret = defineRoute({
  method: "post",
  path: "/{clientId}/secret",
  summary: "Rotate an OAuth client's secret: the new one is answered this once, the old one stops working at once",
  access: ["admin"],
  params: clientParams,
  body: z.strictObject({}).optional(),
  response: oauthClientWithSecretSchema,
  errors: ["OAUTH_CLIENT_NOT_FOUND", "OAUTH_CLIENT_INVALID"],
});

export const internalOAuthClientsRoutes = routeGroup();
addRoute(internalOAuthClientsRoutes, listClients, async (c, { auth }) => {
  const rows = await listOAuthClientsOf(c.get("deps"), auth.project.id);
  return c.json({ items: rows.map(oauthClientAdminView), is_paginated: false as const });
});
addRoute(internalOAuthClientsRoutes, createClient, async (c, { auth, body }) => {
  const { client, secret } = unwrap(
    await createOAuthClient(c.get("deps"), auth.project, {
      name: body.name,
      clientType: body.client_type,
      tokenEndpointAuthMethod: body.token_endpoint_auth_method,
      redirectUris: body.redirect_uris,
      allowedScopes: body.allowed_scopes ?? null,
      logoUri: body.logo_uri ?? null,
      clientUri: body.client_uri ?? null,
      policyUri: body.policy_uri ?? null,
      tosUri: body.tos_uri ?? null,
      jwks: body.jwks ?? null,
      jwksUri: body.jwks_uri ?? null,
    }),
  ).value;
  return c.json({ ...oauthClientAdminView(client), client_secret: secret }, 201);
});
addRoute(internalOAuthClientsRoutes, getClient, async (c, { auth, params }) => {
  return c.json(oauthClientAdminView(unwrap(await getOAuthClient(c.get("deps"), auth.project.id, params.clientId)).value));
});
addRoute(internalOAuthClientsRoutes, updateClient, async (c, { auth, params, body }) => {
  const row = unwrap(
    await updateOAuthClient(c.get("deps"), auth.project, params.clientId, {
      name: body.name,
      tokenEndpointAuthMethod: body.token_endpoint_auth_method,
      redirectUris: body.redirect_uris,
      allowedScopes: body.allowed_scopes,
      logoUri: body.logo_uri,
      clientUri: body.client_uri,
      policyUri: body.policy_uri,
      tosUri: body.tos_uri,
      jwks: body.jwks,
      jwksUri: body.jwks_uri,
    }),
  ).value;
  return c.json(oauthClientAdminView(row));
});
addRoute(internalOAuthClientsRoutes, deleteClient, async (c, { auth, params }) => {
  unwrap(await deleteOAuthClient(c.get("deps"), auth.project.id, params.clientId));
  return c.json({ success: true as const });
});
addRoute(internalOAuthClientsRoutes, rotateSecret, async (c, { auth, params }) => {
  const { client, secret } = unwrap(await rotateOAuthClientSecret(c.get("deps"), auth.project.id, params.clientId)).value;
  return c.json({ ...oauthClientAdminView(client), client_secret: secret });
});
