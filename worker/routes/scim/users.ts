/**
 * SCIM /Users of an SSO connection (RFC 7644 §3): list with filter and pagination, create, read,
 * replace, patch, delete. Each handler calls one service (services/scim/users.ts) and shapes the answer.
 */
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { USER_SCHEMA } from "../../services/scim/urns";
import { createScimUser, deleteScimUser, getScimUser, listScimUsers, patchScimUser, replaceScimUser } from "../../services/scim/users";
import { readProjection, scimUserView } from "../../services/scim/views";
import { scimCallerOf } from "./caller";
import { ifMatchOf, listResponse, resourceResponse } from "./resource-response";
import { scimProblemResponse } from "./respond";
import {
  COMMON_SCIM_RESPONSES,
  connectionParams,
  listQuery,
  patchBody,
  readQuery,
  resourceParams,
  SCIM_MEDIA_TYPES,
  scimResponses,
  userBody,
} from "./wire";

const common = { access: "public", errorFormat: "scim", bodyMediaTypes: SCIM_MEDIA_TYPES } as const;

const listUsers = defineRoute({
  ...common,
  method: "get",
  path: "/{connectionId}/Users",
  summary: "List or filter SCIM Users",
  params: connectionParams,
  query: listQuery,
  response: [scimResponses.ok("A ListResponse of Users"), ...COMMON_SCIM_RESPONSES],
});

const createUser = defineRoute({
  ...common,
  method: "post",
  path: "/{connectionId}/Users",
  summary: "Provision a SCIM User",
  description:
    "Creates the Doorman user (or links the one signing in with that email when the team verified its domain) and adds it to the team.",
  params: connectionParams,
  body: userBody,
  response: [
    scimResponses.created("The User, with Location and ETag"),
    scimResponses.conflict,
    scimResponses.tooLarge,
    ...COMMON_SCIM_RESPONSES,
  ],
});

const getUser = defineRoute({
  ...common,
  method: "get",
  path: "/{connectionId}/Users/{id}",
  summary: "Read a SCIM User",
  params: resourceParams,
  query: readQuery,
  response: [scimResponses.ok("The User, with its ETag"), scimResponses.notFound, ...COMMON_SCIM_RESPONSES],
});

const writeResponses = [
  scimResponses.ok("The User, with its new ETag"),
  scimResponses.notFound,
  scimResponses.conflict,
  scimResponses.preconditionFailed,
  scimResponses.tooLarge,
  ...COMMON_SCIM_RESPONSES,
];

const replaceUser = defineRoute({
  ...common,
  method: "put",
  path: "/{connectionId}/Users/{id}",
  summary: "Replace a SCIM User",
  description: "active:false removes the user from the team and ends every session of theirs in the project.",
  params: resourceParams,
  body: userBody,
  response: writeResponses,
});

const patchUser = defineRoute({
  ...common,
  method: "patch",
  path: "/{connectionId}/Users/{id}",
  summary: "Patch a SCIM User",
  description: "Operations add/replace/remove with or without a path; active=false deprovisions (team membership and every session).",
  params: resourceParams,
  body: patchBody,
  response: writeResponses,
});

const deleteUser = defineRoute({
  ...common,
  method: "delete",
  path: "/{connectionId}/Users/{id}",
  summary: "Delete a SCIM User",
  description: "The identity goes with the team membership and every session; the Doorman user stays.",
  params: resourceParams,
  response: [scimResponses.noContent, scimResponses.notFound, scimResponses.preconditionFailed, ...COMMON_SCIM_RESPONSES],
});

export const scimUsersRoutes = routeGroup();

addRoute(scimUsersRoutes, listUsers, async (c, { query }) => {
  const result = await listScimUsers(c.get("deps"), scimCallerOf(c), query);
  if (!result.ok) return scimProblemResponse(c, result);
  const deps = c.get("deps");
  const resources = result.users.map((u) => scimUserView(deps, u.identity, u.groups));
  return listResponse(c, result, resources, readProjection(query, USER_SCHEMA));
});

addRoute(scimUsersRoutes, createUser, async (c, { body }) => {
  const result = await createScimUser(c.get("deps"), scimCallerOf(c), body);
  if (!result.ok) return scimProblemResponse(c, result);
  const view = scimUserView(c.get("deps"), result.identity, result.groups);
  return resourceResponse(c, view, result.identity.version, readProjection(c.req.query(), USER_SCHEMA), 201);
});

addRoute(scimUsersRoutes, getUser, async (c, { params, query }) => {
  const result = await getScimUser(c.get("deps"), scimCallerOf(c), params.id);
  if (!result.ok) return scimProblemResponse(c, result);
  const view = scimUserView(c.get("deps"), result.identity, result.groups);
  return resourceResponse(c, view, result.identity.version, readProjection(query, USER_SCHEMA));
});

addRoute(scimUsersRoutes, replaceUser, async (c, { params, body }) => {
  const result = await replaceScimUser(c.get("deps"), scimCallerOf(c), params.id, body, ifMatchOf(c));
  if (!result.ok) return scimProblemResponse(c, result);
  const view = scimUserView(c.get("deps"), result.identity, result.groups);
  return resourceResponse(c, view, result.identity.version, readProjection(c.req.query(), USER_SCHEMA));
});

addRoute(scimUsersRoutes, patchUser, async (c, { params, body }) => {
  const result = await patchScimUser(c.get("deps"), scimCallerOf(c), params.id, body, ifMatchOf(c));
  if (!result.ok) return scimProblemResponse(c, result);
  const view = scimUserView(c.get("deps"), result.identity, result.groups);
  return resourceResponse(c, view, result.identity.version, readProjection(c.req.query(), USER_SCHEMA));
});

addRoute(scimUsersRoutes, deleteUser, async (c, { params }) => {
  const result = await deleteScimUser(c.get("deps"), scimCallerOf(c), params.id, ifMatchOf(c));
  if (!result.ok) return scimProblemResponse(c, result);
  return new Response(null, { status: 204 });
});
