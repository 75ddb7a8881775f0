/**
 * /sso/connections (issue 31, ADMIN): a team's SSO connections for its admins (`$update_team`), a
 * setup link's holder (that team only), server code and the project's owners: list, create, read,
 * change, delete; the SP metadata to download; a new SCIM token (answered once) and the last SCIM calls.
 */

import { successSchema } from "@doorman/shared/wire";
import { eventSchema } from "@doorman/shared/wire-events";
import {
  samlSpEntityId,
  ssoConnectionCreateSchema,
  ssoConnectionSchema,
  ssoConnectionUpdateSchema,
  ssoScimTokenSchema,
  ssoSpMetadataSchema,
} from "@doorman/shared/wire-sso";
import { z } from "zod";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import {
  createSsoConnection,
  deleteSsoConnection,
  getSsoConnection,
  listSsoConnections,
  updateSsoConnection,
} from "../../services/sso/connections";
import { listScimCalls, rotateScimToken } from "../../services/sso/scim-token";
import { downloadSpMetadata } from "../../services/sso/sp-metadata-download";
import { eventView } from "../../views/events";
import { ssoConnectionView } from "../../views/sso";
import { SSO_ACCESS_ERRORS, ssoManager } from "./manager";

const ACCESS = ["client", "server", "admin"] as const;
const connectionParams = z.strictObject({ connectionId: z.string().min(1).max(64) });
const NOT_FOUND = [...SSO_ACCESS_ERRORS, "SSO_CONNECTION_NOT_FOUND"] as const;

const list = defineRoute({
  method: "get",
  path: "/",
  summary: "A team's SSO connections, oldest first",
  access: ACCESS,
  query: z.strictObject({ team_id: z.string().min(1).max(64) }),
  response: z.object({ items: z.array(ssoConnectionSchema), is_paginated: z.literal(false) }),
  errors: SSO_ACCESS_ERRORS,
});
const create = defineRoute({
  method: "post",
  path: "/",
  summary: "Create a team's SSO connection (SAML or OIDC); without its IdP settings it is a disabled draft",
  description:
    "A SAML connection gets its own SP key pair. The IdP settings may come as fields or (SAML) as the IdP's metadata XML. The OIDC client secret is write-only.",
  access: ACCESS,
  body: ssoConnectionCreateSchema,
  maxBodyBytes: 300 * 1024,
  response: { status: 201, description: "The new connection", schema: ssoConnectionSchema },
  errors: [...SSO_ACCESS_ERRORS, "SSO_CONNECTION_INVALID_CONFIG", "SCHEMA_ERROR"],
});
const getOne = defineRoute({
  method: "get",
  path: "/{connectionId}",
  summary: "An SSO connection",
  access: ACCESS,
  params: connectionParams,
  response: ssoConnectionSchema,
  errors: NOT_FOUND,
});
const update = defineRoute({
  method: "patch",
  path: "/{connectionId}",
  summary: "Change an SSO connection (the protocol and team are fixed); concurrent changes of different fields all land",
  access: ACCESS,
  params: connectionParams,
  body: ssoConnectionUpdateSchema,
  maxBodyBytes: 300 * 1024,
  response: ssoConnectionSchema,
  errors: [...NOT_FOUND, "SSO_CONNECTION_INVALID_CONFIG", "SSO_CONNECTION_MODIFIED", "SCHEMA_ERROR"],
});
const remove = defineRoute({
  method: "delete",
  path: "/{connectionId}",
  summary: "Delete an SSO connection: its identities and SCIM groups go, its users and memberships stay",
  access: ACCESS,
  params: connectionParams,
  response: successSchema,
  errors: NOT_FOUND,
});
const rotate = defineRoute({
  method: "post",
  path: "/{connectionId}/scim-token",
  summary: "A new SCIM bearer token for the connection (dmscim_…), answered this once; the old one stops working at once",
  access: ACCESS,
  params: connectionParams,
  body: z.strictObject({}).optional(),
  response: ssoScimTokenSchema,
  errors: NOT_FOUND,
});
const spMetadata = defineRoute({
  method: "get",
  path: "/{connectionId}/sp-metadata",
  summary: "A SAML connection's SP metadata XML to hand the IdP (also for a draft) and its public URL",
  access: ACCESS,
  params: connectionParams,
  response: ssoSpMetadataSchema,
  errors: [...NOT_FOUND, "SSO_CONNECTION_INVALID_CONFIG"],
});
const scimCalls = defineRoute({
  method: "get",
  path: "/{connectionId}/scim-calls",
  summary: "The connection's last SCIM calls (its scim.* events), newest first",
  access: ACCESS,
  params: connectionParams,
  query: z.strictObject({ limit: z.coerce.number().int().min(1).max(100).optional() }),
  response: z.object({ items: z.array(eventSchema), is_paginated: z.literal(false) }),
  errors: NOT_FOUND,
});

export const ssoConnectionsRoutes = routeGroup();
addRoute(ssoConnectionsRoutes, list, async (c, { auth, query }) => {
  const deps = c.get("deps");
  const rows = unwrap(await listSsoConnections(deps, auth.project.id, query.team_id, await ssoManager(c, auth))).value;
  return c.json({ items: rows.map((r) => ssoConnectionView(r, deps.apiUrl)), is_paginated: false as const });
});
addRoute(ssoConnectionsRoutes, create, async (c, { auth, body }) => {
  const deps = c.get("deps");
  const row = unwrap(await createSsoConnection(deps, auth.project, await ssoManager(c, auth), body)).value;
  return c.json(ssoConnectionView(row, deps.apiUrl), 201);
});
addRoute(ssoConnectionsRoutes, getOne, async (c, { auth, params }) => {
  const deps = c.get("deps");
  const row = unwrap(await getSsoConnection(deps, auth.project.id, params.connectionId, await ssoManager(c, auth))).value;
  return c.json(ssoConnectionView(row, deps.apiUrl));
});
addRoute(ssoConnectionsRoutes, update, async (c, { auth, params, body }) => {
  const deps = c.get("deps");
  const row = unwrap(await updateSsoConnection(deps, auth.project, params.connectionId, await ssoManager(c, auth), body)).value;
  return c.json(ssoConnectionView(row, deps.apiUrl));
});
addRoute(ssoConnectionsRoutes, remove, async (c, { auth, params }) => {
  unwrap(await deleteSsoConnection(c.get("deps"), auth.project.id, params.connectionId, await ssoManager(c, auth)));
  return c.json({ success: true as const });
});
addRoute(ssoConnectionsRoutes, rotate, async (c, { auth, params }) => {
  const deps = c.get("deps");
  const { connection, token } = unwrap(await rotateScimToken(deps, auth.project.id, params.connectionId, await ssoManager(c, auth))).value;
  const view = ssoConnectionView(connection, deps.apiUrl);
  return c.json({ scim_token: token, scim_token_prefix: view.scim.token_prefix ?? "", scim_base_url: view.scim.base_url });
});
addRoute(ssoConnectionsRoutes, spMetadata, async (c, { auth, params }) => {
  const deps = c.get("deps");
  const manager = await ssoManager(c, auth);
  const xml = unwrap(await downloadSpMetadata(deps, auth.project.id, params.connectionId, manager)).value;
  return c.json({ metadata_xml: xml, metadata_url: samlSpEntityId(deps.apiUrl, params.connectionId) });
});
addRoute(ssoConnectionsRoutes, scimCalls, async (c, { auth, params, query }) => {
  const deps = c.get("deps");
  const rows = unwrap(await listScimCalls(deps, auth.project.id, params.connectionId, await ssoManager(c, auth), query.limit ?? 20)).value;
  return c.json({ items: rows.map(eventView), is_paginated: false as const });
});
