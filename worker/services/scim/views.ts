/**
 * SCIM resources as answered (RFC 7643 §3): the stored attributes with `id`, `schemas` and `meta`
 * (resourceType, created, lastModified, version as a weak ETag, location), a User's read-only `groups`
 * and a Group's `members`; and the `attributes` / `excludedAttributes` projection of RFC 7644 §3.9.
 */
import { SSO_PATHS } from "@doorman/shared/wire-sso";
import type { IdentityGroup, ScimGroupMember, ScimGroupRow } from "../../db/queries/scim-groups";
import type { SsoIdentityRow } from "../../db/queries/sso-identities";
import type { Deps } from "../deps";
import { isObject, type JsonObject } from "./normalize";
import { ENTERPRISE_USER_SCHEMA, GROUP_SCHEMA, USER_SCHEMA } from "./urns";

/** The connection's SCIM base URL (what an IdP is configured with). */
export function scimBaseUrl(deps: Deps, connectionId: string): string {
  return `${deps.apiUrl}/api/v1${SSO_PATHS.scimBase(connectionId)}`;
}

/** The weak entity tag of a resource version (RFC 7644 §3.14). */
export const etagOf = (version: number) => `W/"${version}"`;

function meta(
  deps: Deps,
  connectionId: string,
  kind: "User" | "Group",
  row: { id: string; createdAt: number; updatedAt: number; version: number },
) {
  return {
    resourceType: kind,
    created: new Date(row.createdAt).toISOString(),
    lastModified: new Date(row.updatedAt).toISOString(),
    version: etagOf(row.version),
    location: `${scimBaseUrl(deps, connectionId)}/${kind}s/${row.id}`,
  };
}

/** A resource as answered: its attributes, and meta (with its location). */
export type ScimResource = JsonObject & { meta: { location: string } };

/**
 * A User's stored attributes with `active` (a column of its own): what a PATCH applies to. An identity
 * a first SSO sign-in made has no SCIM attributes yet: its userName (the IdP's email or subject) stands in.
 */
export function userAttributesOf(identity: SsoIdentityRow): JsonObject {
  const stored = isObject(identity.scimResource) ? identity.scimResource : {};
  const userName = identity.userName ?? identity.subject;
  return { ...(userName !== null ? { userName } : {}), ...stored, active: identity.active };
}

export function scimUserView(deps: Deps, identity: SsoIdentityRow, groups: readonly IdentityGroup[]): ScimResource {
  const attributes = userAttributesOf(identity);
  const base = scimBaseUrl(deps, identity.connectionId);
  return {
    schemas: ENTERPRISE_USER_SCHEMA in attributes ? [USER_SCHEMA, ENTERPRISE_USER_SCHEMA] : [USER_SCHEMA],
    id: identity.id,
    ...attributes,
    groups: groups.map((g) => ({ value: g.groupId, $ref: `${base}/Groups/${g.groupId}`, display: g.displayName, type: "direct" })),
    meta: meta(deps, identity.connectionId, "User", identity),
  };
}

export function scimGroupView(deps: Deps, group: ScimGroupRow, members: readonly ScimGroupMember[]): ScimResource {
  const base = scimBaseUrl(deps, group.connectionId);
  return {
    schemas: [GROUP_SCHEMA],
    id: group.id,
    ...(group.externalId !== null ? { externalId: group.externalId } : {}),
    displayName: group.displayName,
    members: members.map((m) => ({
      value: m.identityId,
      $ref: `${base}/Users/${m.identityId}`,
      type: "User",
      ...(m.userName ? { display: m.userName } : {}),
    })),
    meta: meta(deps, group.connectionId, "Group", group),
  };
}

/** Which top-level attributes an answer keeps (RFC 7644 §3.9); `id` and `schemas` always stay. */
export type Projection = { attributes: string[] | null; excluded: string[] };

function names(text: string | undefined, coreSchema: string): string[] {
  if (!text) return [];
  const prefix = `${coreSchema.toLowerCase()}:`;
  return text
    .split(",")
    .map((n) => n.trim().toLowerCase())
    .filter(Boolean)
    .map((n) => {
      // An extension's attribute (urn:…:enterprise:2.0:User:department) selects the extension object.
      const extension = ENTERPRISE_USER_SCHEMA.toLowerCase();
      if (n.startsWith(extension)) return extension;
      return (n.startsWith(prefix) ? n.slice(prefix.length) : n).split(".")[0] as string;
    });
}

export function readProjection(query: { attributes?: string; excludedAttributes?: string }, coreSchema: string): Projection {
  const attributes = names(query.attributes, coreSchema);
  return { attributes: attributes.length ? attributes : null, excluded: names(query.excludedAttributes, coreSchema) };
}

/** Does the projection leave this attribute out (to skip loading it, e.g. a Group's members)? */
export function projectionDrops(p: Projection, name: string): boolean {
  const key = name.toLowerCase();
  return p.attributes ? !p.attributes.includes(key) : p.excluded.includes(key);
}

export function project(resource: JsonObject, p: Projection): JsonObject {
  if (!p.attributes && p.excluded.length === 0) return resource;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(resource)) {
    const lower = key.toLowerCase();
    if (lower === "id" || lower === "schemas" || !projectionDrops(p, lower)) out[key] = value;
  }
  return out;
}
