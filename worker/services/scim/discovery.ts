/**
 * The SCIM discovery documents of a connection (RFC 7644 §4, RFC 7643 §5–§7): what the server
 * supports (PATCH, filters, ETags; no bulk, sort or password change), its two resource types, and
 * their schemas, rendered from the same attribute definitions the writes follow.
 */
import type { Deps } from "../deps";
import { MAX_PAGE_SIZE } from "./requests";
import {
  type AttributeDef,
  ENTERPRISE_USER_RESOURCE_SCHEMA,
  GROUP_RESOURCE_SCHEMA,
  type ResourceSchemaDef,
  USER_RESOURCE_SCHEMA,
} from "./schema-definitions";
import {
  ENTERPRISE_USER_SCHEMA,
  GROUP_SCHEMA,
  RESOURCE_TYPE_SCHEMA,
  SCHEMA_SCHEMA,
  SERVICE_PROVIDER_CONFIG_SCHEMA,
  USER_SCHEMA,
} from "./urns";
import { scimBaseUrl } from "./views";

export function serviceProviderConfig(deps: Deps, connectionId: string) {
  return {
    schemas: [SERVICE_PROVIDER_CONFIG_SCHEMA],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_PAGE_SIZE },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: "oauthbearertoken",
        name: "OAuth Bearer Token",
        description: "The connection's SCIM token (dmscim_…), shown once when an admin issues it, in Authorization: Bearer.",
        specUri: "https://www.rfc-editor.org/rfc/rfc6750",
        primary: true,
      },
    ],
    meta: { resourceType: "ServiceProviderConfig", location: `${scimBaseUrl(deps, connectionId)}/ServiceProviderConfig` },
  };
}

const RESOURCE_TYPES = [
  {
    id: "User",
    name: "User",
    endpoint: "/Users",
    description: "User Account: a member of the connection's team",
    schema: USER_SCHEMA,
    schemaExtensions: [{ schema: ENTERPRISE_USER_SCHEMA, required: false }],
  },
  { id: "Group", name: "Group", endpoint: "/Groups", description: "Group", schema: GROUP_SCHEMA, schemaExtensions: [] },
] as const;

export type ScimDocument = Record<string, unknown>;

export function resourceTypes(deps: Deps, connectionId: string): ScimDocument[] {
  return RESOURCE_TYPES.map((t) => ({
    schemas: [RESOURCE_TYPE_SCHEMA],
    ...t,
    meta: { resourceType: "ResourceType", location: `${scimBaseUrl(deps, connectionId)}/ResourceTypes/${t.id}` },
  }));
}

function attributeView(def: AttributeDef): ScimDocument {
  const { subAttributes, ...rest } = def;
  return { ...rest, ...(subAttributes ? { subAttributes: subAttributes.map(attributeView) } : {}) };
}

function schemaView(deps: Deps, connectionId: string, schema: ResourceSchemaDef): ScimDocument {
  return {
    schemas: [SCHEMA_SCHEMA],
    id: schema.id,
    name: schema.name,
    description: schema.description,
    attributes: schema.attributes.map(attributeView),
    meta: { resourceType: "Schema", location: `${scimBaseUrl(deps, connectionId)}/Schemas/${schema.id}` },
  };
}

export function schemas(deps: Deps, connectionId: string): ScimDocument[] {
  return [USER_RESOURCE_SCHEMA, ENTERPRISE_USER_RESOURCE_SCHEMA, GROUP_RESOURCE_SCHEMA].map((s) => schemaView(deps, connectionId, s));
}
