/**
 * SCIM /Groups of an SSO connection (RFC 7644 §3): list with filter and pagination (members left out
 * with excludedAttributes=members), create, read, replace, patch (204, as Entra and Okta expect), delete.
 * Each handler calls one service (services/scim/groups.ts) and shapes the answer.
 */
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import {
  createScimGroup,
  deleteScimGroup,
  getScimGroup,
  listScimGroups,
  patchScimGroup,
  replaceScimGroup,
} from "../../services/scim/groups";
import { GROUP_SCHEMA } from "../../services/scim/urns";
import { etagOf, projectionDrops, readProjection, scimGroupView } from "../../services/scim/views";
import { scimCallerOf } from "./caller";
import { ifMatchOf, listResponse, resourceResponse } from "./resource-response";
import { scimProblemResponse } from "./respond";
import {
  COMMON_SCIM_RESPONSES,
  connectionParams,
  groupBody,
  listQuery,
  patchBody,
  readQuery,
  resourceParams,
  SCIM_MEDIA_TYPES,
  scimResponses,
} from "./wire";

const common = { access: "public", errorFormat: "scim", bodyMediaTypes: SCIM_MEDIA_TYPES } as const;

const listGroups = defineRoute({
  ...common,
  method: "get",
  path: "/{connectionId}/Groups",
  summary: "List or filter SCIM Groups",
  params: connectionParams,
  query: listQuery,
  response: [scimResponses.ok("A ListResponse of Groups"), ...COMMON_SCIM_RESPONSES],
});

const createGroup = defineRoute({
  ...common,
  method: "post",
  path: "/{connectionId}/Groups",
  summary: "Create a SCIM Group",
  description: "Its members get the team permissions the connection's group mapping gives its displayName.",
  params: connectionParams,
  body: groupBody,
  response: [
    scimResponses.created("The Group, with Location and ETag"),
    scimResponses.conflict,
    scimResponses.tooLarge,
    ...COMMON_SCIM_RESPONSES,
  ],
});

const getGroup = defineRoute({
  ...common,
  method: "get",
  path: "/{connectionId}/Groups/{id}",
  summary: "Read a SCIM Group",
  params: resourceParams,
  query: readQuery,
  response: [scimResponses.ok("The Group, with its ETag"), scimResponses.notFound, ...COMMON_SCIM_RESPONSES],
});

const writeErrors = [
  scimResponses.notFound,
  scimResponses.conflict,
  scimResponses.preconditionFailed,
  scimResponses.tooLarge,
  ...COMMON_SCIM_RESPONSES,
];

const replaceGroup = defineRoute({
  ...common,
  method: "put",
  path: "/{connectionId}/Groups/{id}",
  summary: "Replace a SCIM Group",
  description: "Name and members as given (no members: none); mapped team permissions follow.",
  params: resourceParams,
  body: groupBody,
  response: [scimResponses.ok("The Group, with its new ETag"), ...writeErrors],
});

const patchGroup = defineRoute({
  ...common,
  method: "patch",
  path: "/{connectionId}/Groups/{id}",
  summary: "Patch a SCIM Group",
  description:
    'Members added or removed (a value list, or path members[value eq "…"]), displayName replaced; mapped team permissions follow.',
  params: resourceParams,
  body: patchBody,
  response: [scimResponses.noContent, ...writeErrors],
});

const deleteGroup = defineRoute({
  ...common,
  method: "delete",
  path: "/{connectionId}/Groups/{id}",
  summary: "Delete a SCIM Group",
  description: "Its members lose the permissions no other group of theirs maps.",
  params: resourceParams,
  response: [scimResponses.noContent, scimResponses.notFound, scimResponses.preconditionFailed, ...COMMON_SCIM_RESPONSES],
});

export const scimGroupsRoutes = routeGroup();

addRoute(scimGroupsRoutes, listGroups, async (c, { query }) => {
  const projection = readProjection(query, GROUP_SCHEMA);
  const result = await listScimGroups(c.get("deps"), scimCallerOf(c), query, !projectionDrops(projection, "members"));
  if (!result.ok) return scimProblemResponse(c, result);
  const deps = c.get("deps");
  const resources = result.groups.map((g) => scimGroupView(deps, g.group, g.members));
  return listResponse(c, result, resources, projection);
});

addRoute(scimGroupsRoutes, createGroup, async (c, { body }) => {
  const result = await createScimGroup(c.get("deps"), scimCallerOf(c), body);
  if (!result.ok) return scimProblemResponse(c, result);
  const view = scimGroupView(c.get("deps"), result.group, result.members);
  return resourceResponse(c, view, result.group.version, readProjection(c.req.query(), GROUP_SCHEMA), 201);
});

addRoute(scimGroupsRoutes, getGroup, async (c, { params, query }) => {
  const projection = readProjection(query, GROUP_SCHEMA);
  const result = await getScimGroup(c.get("deps"), scimCallerOf(c), params.id, !projectionDrops(projection, "members"));
  if (!result.ok) return scimProblemResponse(c, result);
  return resourceResponse(c, scimGroupView(c.get("deps"), result.group, result.members), result.group.version, projection);
});

addRoute(scimGroupsRoutes, replaceGroup, async (c, { params, body }) => {
  const result = await replaceScimGroup(c.get("deps"), scimCallerOf(c), params.id, body, ifMatchOf(c));
  if (!result.ok) return scimProblemResponse(c, result);
  const view = scimGroupView(c.get("deps"), result.group, result.members);
  return resourceResponse(c, view, result.group.version, readProjection(c.req.query(), GROUP_SCHEMA));
});

addRoute(scimGroupsRoutes, patchGroup, async (c, { params, body }) => {
  const result = await patchScimGroup(c.get("deps"), scimCallerOf(c), params.id, body, ifMatchOf(c));
  if (!result.ok) return scimProblemResponse(c, result);
  return new Response(null, { status: 204, headers: { etag: etagOf(result.group.version) } });
});

addRoute(scimGroupsRoutes, deleteGroup, async (c, { params }) => {
  const result = await deleteScimGroup(c.get("deps"), scimCallerOf(c), params.id, ifMatchOf(c));
  if (!result.ok) return scimProblemResponse(c, result);
  return new Response(null, { status: 204 });
});
