/**
 * What a SCIM write keeps of a User or Group body (RFC 7643): attributes known to the schema
 * definitions, matched case-insensitively and stored under their canonical names, with their types
 * checked. Unknown attributes (an IdP's custom extension) are ignored, as are readOnly ones (id, meta,
 * groups, a manager's displayName); writeOnly ones (password) are never stored. Booleans sent as the
 * strings "True"/"False" (Microsoft Entra does) are read as booleans. Throws ScimInputError.
 */
import { invalid } from "./errors";
import {
  type AttributeDef,
  ENTERPRISE_USER_RESOURCE_SCHEMA,
  findAttribute,
  GROUP_RESOURCE_SCHEMA,
  USER_RESOURCE_SCHEMA,
} from "./schema-definitions";
import { ENTERPRISE_USER_SCHEMA } from "./urns";

/** Longest string value kept; longer ones are refused (invalidValue). */
export const MAX_VALUE_LENGTH = 2048;
/** Most values a multi-valued attribute (emails, roles…) may hold; a group's members are not capped here. */
export const MAX_MULTI_VALUES = 100;
/** Largest stored User resource, as JSON. */
export const MAX_RESOURCE_BYTES = 64 * 1024;

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A SCIM boolean: true/false, or the strings "true"/"false" in any case. */
export function readBoolean(value: unknown, where: string): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "string" && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === "true";
  return invalid("invalidValue", `${where} must be a boolean.`);
}

function readString(value: unknown, where: string): string {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value !== "string") return invalid("invalidValue", `${where} must be a string.`);
  if (value.length > MAX_VALUE_LENGTH) invalid("invalidValue", `${where} is longer than ${MAX_VALUE_LENGTH} characters.`);
  return value;
}

function normalizeComplex(def: AttributeDef, value: unknown, where: string): JsonObject | undefined {
  const subs = def.subAttributes ?? [];
  // A bare value where a complex one is expected (Entra's manager: "value": "<id>") is its `value` sub-attribute.
  if (!isObject(value)) {
    if (findAttribute(subs, "value") && (typeof value === "string" || typeof value === "number")) value = { value };
    else return invalid("invalidValue", `${where} must be an object.`);
  }
  const out: JsonObject = {};
  for (const [key, raw] of Object.entries(value as JsonObject)) {
    const sub = findAttribute(subs, key);
    if (!sub || sub.mutability === "readOnly" || sub.mutability === "writeOnly") continue;
    const v = normalizeSingle(sub, raw, `${where}.${sub.name}`);
    if (v !== undefined) out[sub.name] = v;
  }
  return Object.keys(out).length ? out : undefined;
}

function normalizeSingle(def: AttributeDef, value: unknown, where: string): unknown {
  if (value === null || value === undefined) return undefined;
  switch (def.type) {
    case "boolean":
      return readBoolean(value, where);
    case "complex":
      return normalizeComplex(def, value, where);
    default:
      return readString(value, where);
  }
}

/** One attribute's value, or undefined when it is empty (null, [], {}). */
export function normalizeValue(def: AttributeDef, value: unknown, where = def.name, maxValues = MAX_MULTI_VALUES): unknown {
  if (value === null || value === undefined) return undefined;
  if (!def.multiValued) {
    if (Array.isArray(value)) return invalid("invalidValue", `${where} takes one value, not a list.`);
    return normalizeSingle(def, value, where);
  }
  const list = Array.isArray(value) ? value : [value];
  if (list.length > maxValues) invalid("invalidValue", `${where} has more than ${maxValues} values.`);
  const items = list.map((v, i) => normalizeSingle(def, v, `${where}[${i}]`)).filter((v) => v !== undefined);
  // RFC 7643 §2.4: at most one primary; the last one marked wins (a PATCH that adds a new primary demotes the old).
  let lastPrimary = -1;
  items.forEach((v, i) => {
    if (isObject(v) && v.primary === true) lastPrimary = i;
  });
  items.forEach((v, i) => {
    if (isObject(v) && v.primary === true && i !== lastPrimary) v.primary = false;
  });
  return items.length ? items : undefined;
}

function normalizeAgainst(defs: readonly AttributeDef[], body: JsonObject, where: string): JsonObject {
  const out: JsonObject = {};
  for (const [key, raw] of Object.entries(body)) {
    const def = findAttribute(defs, key);
    if (!def || def.mutability === "readOnly" || def.mutability === "writeOnly") continue;
    const v = normalizeValue(def, raw, where ? `${where}:${def.name}` : def.name);
    if (v !== undefined) out[def.name] = v;
  }
  return out;
}

/** A User as stored: its attributes (userName and externalId among them), and `active` apart (a column). */
export type UserAttributes = { userName: string; externalId: string | null; active: boolean; resource: JsonObject };

/** The attributes of a User body (POST, PUT, or the result of a PATCH). */
export function normalizeUser(body: unknown): UserAttributes {
  if (!isObject(body)) return invalid("invalidSyntax", "The body must be a JSON object.");
  const core: JsonObject = {};
  let externalId: string | null = null;
  let enterprise: JsonObject | undefined;
  for (const [key, raw] of Object.entries(body)) {
    const lower = key.toLowerCase();
    // JSON.parse makes "__proto__" an own key; copied by assignment it would set a prototype instead.
    if (lower === "__proto__") continue;
    if (lower === "externalid") externalId = raw === null || raw === undefined ? null : readString(raw, "externalId");
    else if (lower === ENTERPRISE_USER_SCHEMA.toLowerCase()) {
      if (raw === null || raw === undefined) continue;
      if (!isObject(raw)) return invalid("invalidValue", `${ENTERPRISE_USER_SCHEMA} must be an object.`);
      enterprise = normalizeAgainst(ENTERPRISE_USER_RESOURCE_SCHEMA.attributes, raw, ENTERPRISE_USER_SCHEMA);
    } else core[key] = raw;
  }
  const resource = normalizeAgainst(USER_RESOURCE_SCHEMA.attributes, core, "");
  const active = resource.active === undefined ? true : (resource.active as boolean);
  delete resource.active;
  const userName = typeof resource.userName === "string" ? resource.userName.trim() : "";
  if (!userName) return invalid("invalidValue", "userName is required.");
  resource.userName = userName;
  if (externalId !== null) resource.externalId = externalId;
  if (enterprise && Object.keys(enterprise).length) resource[ENTERPRISE_USER_SCHEMA] = enterprise;
  if (JSON.stringify(resource).length > MAX_RESOURCE_BYTES) invalid("invalidValue", `The User is larger than ${MAX_RESOURCE_BYTES} bytes.`);
  return { userName, externalId, active, resource };
}

/** A Group as stored: its name, externalId, and members (User ids) when the body names them. */
export type GroupAttributes = { displayName: string; externalId: string | null; memberIds: string[] };

/** Most members one Group body may list (the body's size bounds it first; a write changes fewer, see groups.ts). */
export const MAX_GROUP_MEMBERS = 50_000;

export function normalizeGroup(body: unknown): GroupAttributes {
  if (!isObject(body)) return invalid("invalidSyntax", "The body must be a JSON object.");
  let externalId: string | null = null;
  const core: JsonObject = {};
  for (const [key, raw] of Object.entries(body)) {
    if (key === "__proto__") continue;
    if (key.toLowerCase() === "externalid") externalId = raw === null || raw === undefined ? null : readString(raw, "externalId");
    else core[key] = raw;
  }
  const defs = GROUP_RESOURCE_SCHEMA.attributes;
  const displayNameDef = findAttribute(defs, "displayName") as AttributeDef;
  const membersDef = findAttribute(defs, "members") as AttributeDef;
  const displayNameKey = Object.keys(core).find((k) => k.toLowerCase() === "displayname");
  const membersKey = Object.keys(core).find((k) => k.toLowerCase() === "members");
  const displayName = displayNameKey ? normalizeValue(displayNameDef, core[displayNameKey]) : undefined;
  if (typeof displayName !== "string" || !displayName.trim()) return invalid("invalidValue", "displayName is required.");
  const members = (membersKey ? normalizeValue(membersDef, core[membersKey], "members", MAX_GROUP_MEMBERS) : undefined) as
    | JsonObject[]
    | undefined;
  const memberIds: string[] = [];
  for (const [i, m] of (members ?? []).entries()) {
    if (typeof m.value !== "string" || !m.value) return invalid("invalidValue", `members[${i}].value is required.`);
    if (m.type !== undefined && String(m.type).toLowerCase() !== "user") invalid("invalidValue", "Only Users can be members of a Group.");
    memberIds.push(m.value);
  }
  return { displayName: displayName.trim(), externalId, memberIds: [...new Set(memberIds)] };
}
