/** SCIM discovery of an SSO connection (RFC 7644 §4): /ServiceProviderConfig, /ResourceTypes, /Schemas, each also by id. */
import { z } from "zod";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { resourceTypes, schemas, serviceProviderConfig } from "../../services/scim/discovery";
import { scimProblem } from "../../services/scim/errors";
import { LIST_RESPONSE } from "../../services/scim/urns";
import { scimCallerOf } from "./caller";
import { scimJson, scimProblemResponse } from "./respond";
import { COMMON_SCIM_RESPONSES, connectionParams, scimResponses } from "./wire";

const common = { access: "public", errorFormat: "scim", params: connectionParams } as const;
const byIdParams = z.strictObject({ connectionId: z.string().min(1).max(64), id: z.string().min(1).max(256) });

const getConfig = defineRoute({
  ...common,
  method: "get",
  path: "/{connectionId}/ServiceProviderConfig",
  summary: "SCIM service provider configuration",
  response: [
    scimResponses.ok("What the server supports: PATCH, filter, ETags; no bulk, sort or password change"),
    ...COMMON_SCIM_RESPONSES,
  ],
});
const listResourceTypes = defineRoute({
  ...common,
  method: "get",
  path: "/{connectionId}/ResourceTypes",
  summary: "SCIM resource types",
  response: [scimResponses.ok("A ListResponse of the User and Group resource types"), ...COMMON_SCIM_RESPONSES],
});
const getResourceType = defineRoute({
  ...common,
  method: "get",
  path: "/{connectionId}/ResourceTypes/{id}",
  summary: "A SCIM resource type",
  params: byIdParams,
  response: [scimResponses.ok("The resource type"), scimResponses.notFound, ...COMMON_SCIM_RESPONSES],
});
const listSchemas = defineRoute({
  ...common,
  method: "get",
  path: "/{connectionId}/Schemas",
  summary: "SCIM schemas",
  response: [scimResponses.ok("A ListResponse of the User, enterprise User and Group schemas"), ...COMMON_SCIM_RESPONSES],
});
const getSchema = defineRoute({
  ...common,
  method: "get",
  path: "/{connectionId}/Schemas/{id}",
  summary: "A SCIM schema",
  params: byIdParams,
  response: [scimResponses.ok("The schema"), scimResponses.notFound, ...COMMON_SCIM_RESPONSES],
});

function listOf(items: Record<string, unknown>[]) {
  return { schemas: [LIST_RESPONSE], totalResults: items.length, startIndex: 1, itemsPerPage: items.length, Resources: items };
}

export const scimDiscoveryRoutes = routeGroup();

addRoute(scimDiscoveryRoutes, getConfig, (c) => {
  const { connection } = scimCallerOf(c);
  return scimJson(c, serviceProviderConfig(c.get("deps"), connection.id));
});

addRoute(scimDiscoveryRoutes, listResourceTypes, (c) => scimJson(c, listOf(resourceTypes(c.get("deps"), scimCallerOf(c).connection.id))));

addRoute(scimDiscoveryRoutes, getResourceType, (c, { params }) => {
  const found = resourceTypes(c.get("deps"), scimCallerOf(c).connection.id).find((t) => t.id === params.id);
  return found ? scimJson(c, found) : scimProblemResponse(c, scimProblem(404, `Resource type ${params.id} not found.`));
});

addRoute(scimDiscoveryRoutes, listSchemas, (c) => scimJson(c, listOf(schemas(c.get("deps"), scimCallerOf(c).connection.id))));

addRoute(scimDiscoveryRoutes, getSchema, (c, { params }) => {
  const found = schemas(c.get("deps"), scimCallerOf(c).connection.id).find((s) => s.id === params.id);
  return found ? scimJson(c, found) : scimProblemResponse(c, scimProblem(404, `Schema ${params.id} not found.`));
});
