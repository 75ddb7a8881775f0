/**
 * PATCH (RFC 7644 §3.5.2) applied to a resource's attributes, as the IdPs send it: `op` in any case
 * ("Replace", Entra), operations with a path (`name.familyName`, `emails[type eq "work"].value`,
 * `members[value eq "…"]`, an extension attribute behind its URN) and without one (the value's keys
 * are attribute names or paths: Okta's `{"active": false}`, Entra's `{"name.givenName": …}`), and
 * Entra's `remove` of `members` with a value list. The result goes through the same normalization
 * as a PUT (normalize.ts), so a patched resource is held to the same rules. Throws ScimInputError.
 */
import { filter as matcher } from "scim2-parse-filter";
import { type PatchTarget, parsePatchPath } from "./attribute-path";
import { invalid } from "./errors";
import type { Filter } from "./filter-text";
import { isObject, type JsonObject } from "./normalize";
import { type AttributeDef, findAttribute, type ResourceSchemaDef } from "./schema-definitions";
import { PATCH_OP } from "./urns";

export type PatchOperation = { op: "add" | "replace" | "remove"; path?: string; value?: unknown };

/** Most operations one PATCH may carry. */
export const MAX_OPERATIONS = 1000;

/** The operations of a PatchOp body, checked for shape. */
export function readPatchRequest(body: unknown): PatchOperation[] {
  if (!isObject(body)) return invalid("invalidSyntax", "The body must be a JSON object.");
  const schemasKey = Object.keys(body).find((k) => k.toLowerCase() === "schemas");
  if (schemasKey !== undefined) {
    const schemas = body[schemasKey];
    if (!Array.isArray(schemas) || !schemas.some((s) => typeof s === "string" && s.toLowerCase() === PATCH_OP.toLowerCase()))
      invalid("invalidSyntax", `schemas must list ${PATCH_OP}.`);
  }
  const opsKey = Object.keys(body).find((k) => k.toLowerCase() === "operations");
  const ops = opsKey === undefined ? undefined : body[opsKey];
  if (!Array.isArray(ops) || ops.length === 0 || ops.length > MAX_OPERATIONS)
    return invalid("invalidSyntax", `Operations must be a list of 1 to ${MAX_OPERATIONS} operations.`);
  return ops.map((raw, i) => {
    if (!isObject(raw)) return invalid("invalidSyntax", `Operations[${i}] must be an object.`);
    const get = (name: string) => raw[Object.keys(raw).find((k) => k.toLowerCase() === name) ?? ""];
    const op = typeof get("op") === "string" ? (get("op") as string).toLowerCase() : "";
    if (op !== "add" && op !== "replace" && op !== "remove")
      return invalid("invalidSyntax", `Operations[${i}].op must be add, replace or remove.`);
    const path = get("path");
    if (path !== undefined && path !== null && typeof path !== "string")
      return invalid("invalidPath", `Operations[${i}].path must be a string.`);
    const value = get("value");
    if (op !== "remove" && value === undefined) invalid("invalidValue", `Operations[${i}] needs a value.`);
    return { op, ...(typeof path === "string" ? { path } : {}), ...(value !== undefined ? { value } : {}) };
  });
}

export type PatchSchemas = { core: ResourceSchemaDef; extensions: readonly ResourceSchemaDef[] };

const list = (value: unknown): unknown[] => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);

/** What identifies a value of a multi-valued attribute: its `value` sub-attribute, else the whole value. */
function identity(item: unknown): string {
  return JSON.stringify(isObject(item) && item.value !== undefined ? item.value : item);
}

/** The element a filter of equalities describes (`type eq "work"` → {type: "work"}), to add where none matches; null for other filters. */
function seedOf(filter: Filter, def: AttributeDef): JsonObject | null {
  if (filter.op === "and") {
    const parts = filter.filters.map((f) => seedOf(f, def));
    return parts.some((p) => p === null) ? null : Object.assign({}, ...parts);
  }
  if (filter.op !== "eq" || filter.compValue === null || filter.attrPath.includes(".")) return null;
  const sub = findAttribute(def.subAttributes ?? [], filter.attrPath);
  return sub ? { [sub.name]: filter.compValue } : null;
}

/** A complex attribute's value as an object (a bare value is its `value` sub-attribute). */
function asObject(value: unknown, where: string): JsonObject {
  if (isObject(value)) return value;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return { value };
  return invalid("invalidValue", `${where} needs an object value.`);
}

function setOrDelete(container: JsonObject, name: string, value: unknown): void {
  const empty = value === undefined || value === null || (Array.isArray(value) && value.length === 0);
  if (empty) delete container[name];
  else container[name] = value;
}

function applyToAttribute(doc: JsonObject, op: PatchOperation["op"], target: Extract<PatchTarget, { kind: "attribute" }>, value: unknown) {
  const { def, filter, sub, extension } = target;
  if (def.mutability === "readOnly") invalid("mutability", `${def.name} is read-only.`);
  if (def.mutability === "writeOnly") return; // Never stored (a password): nothing to change.
  if (extension && !isObject(doc[extension.id])) {
    if (op === "remove") return;
    doc[extension.id] = {};
  }
  const container = (extension ? doc[extension.id] : doc) as JsonObject;
  const current = container[def.name];
  if (!filter && !sub) {
    if (op === "remove") {
      // Entra removes members as `{"op":"Remove","path":"members","value":[{"value":"<id>"}]}`: only those values go.
      if (def.multiValued && value !== undefined) {
        const gone = new Set(list(value).map(identity));
        setOrDelete(
          container,
          def.name,
          list(current).filter((item) => !gone.has(identity(item))),
        );
      } else delete container[def.name];
    } else if (def.multiValued) {
      if (op === "replace") setOrDelete(container, def.name, list(value));
      else {
        const items = list(current);
        const seen = new Set(items.map(identity));
        for (const item of list(value)) {
          if (seen.has(identity(item))) continue;
          items.push(item);
          seen.add(identity(item));
        }
        setOrDelete(container, def.name, items);
      }
    } else if (def.type === "complex") {
      // RFC 7644 §3.5.2.1/§3.5.2.3: the sub-attributes given replace theirs, the others stay.
      setOrDelete(container, def.name, { ...(isObject(current) ? current : {}), ...asObject(value, def.name) });
    } else setOrDelete(container, def.name, value);
    return;
  }
  if (!filter && sub) {
    if (def.multiValued) {
      const items = list(current).map((item): JsonObject => (isObject(item) ? { ...item } : { value: item }));
      if (op === "remove") for (const item of items) delete item[sub.name];
      else if (items.length === 0) items.push({ [sub.name]: value });
      else for (const item of items) item[sub.name] = value;
      setOrDelete(container, def.name, items);
    } else {
      const object = { ...(isObject(current) ? current : {}) };
      if (op === "remove") delete object[sub.name];
      else object[sub.name] = value;
      setOrDelete(container, def.name, Object.keys(object).length ? object : undefined);
    }
    return;
  }
  const matches = matcher(filter as Filter);
  const items = list(current).map((item): JsonObject => (isObject(item) ? { ...item } : { value: item }));
  const hits = items.filter((item) => matches(item));
  if (op === "remove") {
    if (sub) for (const item of hits) delete item[sub.name];
    setOrDelete(container, def.name, sub ? items : items.filter((item) => !hits.includes(item)));
    return;
  }
  if (hits.length === 0) {
    // Nothing matches `emails[type eq "work"]`: the IdP means "the work email", so it is added (Entra relies on this).
    const seed = seedOf(filter as Filter, def);
    if (!seed) return invalid("noTarget", `No value of ${def.name} matches the path's filter.`);
    items.push(sub ? { ...seed, [sub.name]: value } : { ...seed, ...asObject(value, def.name) });
  } else for (const item of hits) Object.assign(item, sub ? { [sub.name]: value } : asObject(value, def.name));
  setOrDelete(container, def.name, items);
}

function applyTarget(doc: JsonObject, op: PatchOperation["op"], target: PatchTarget, value: unknown) {
  if (target.kind === "ignored") return;
  if (target.kind === "attribute") return applyToAttribute(doc, op, target, value);
  // The whole extension: its attributes one by one (remove drops it).
  if (op === "remove") {
    delete doc[target.schema.id];
    return;
  }
  if (!isObject(value)) return invalid("invalidValue", `${target.schema.id} needs an object value.`);
  for (const [key, v] of Object.entries(value)) {
    const def = findAttribute(target.schema.attributes, key);
    if (def) applyToAttribute(doc, op, { kind: "attribute", extension: target.schema, def }, v);
  }
}

/** One attribute path (or a no-path value's key) and its value; id and externalId are the common attributes no schema lists. */
function applyKey(doc: JsonObject, op: PatchOperation["op"], key: string, value: unknown, schemas: PatchSchemas, id: string) {
  const lower = key.trim().toLowerCase();
  if (lower === "schemas" || lower === "meta") return;
  if (lower === "id") {
    if (op === "remove" || value !== id) invalid("mutability", "id cannot be changed.");
    return;
  }
  if (lower === "externalid") {
    if (op === "remove") delete doc.externalId;
    else doc.externalId = value;
    return;
  }
  applyTarget(doc, op, parsePatchPath(key, schemas.core, schemas.extensions), value);
}

/** The resource after the operations, in order; `id` is the resource's (a value may repeat it, never change it). */
export function applyPatch(resource: JsonObject, ops: readonly PatchOperation[], schemas: PatchSchemas, id: string): JsonObject {
  const doc = structuredClone(resource);
  for (const operation of ops) {
    if (operation.path !== undefined) {
      applyKey(doc, operation.op, operation.path, operation.value, schemas, id);
      continue;
    }
    if (operation.op === "remove") return invalid("noTarget", "A remove operation needs a path.");
    if (!isObject(operation.value)) return invalid("invalidValue", "An operation without a path needs an object value.");
    for (const [key, value] of Object.entries(operation.value)) applyKey(doc, operation.op, key, value, schemas, id);
  }
  return doc;
}
