/**
 * A PATCH operation's `path` (RFC 7644 §3.5.2, the ABNF of §3.10): `attr`, `attr.sub`, `attr[filter]`,
 * `attr[filter].sub`, any of them behind a schema URN (`urn:…:enterprise:2.0:User:department`), or an
 * extension's URN alone (the whole extension). Names resolve case-insensitively against the schema
 * definitions. A path naming an attribute Doorman does not keep (an IdP's custom extension) is
 * "ignored", as such attributes are in a POST or PUT; a malformed one is invalidPath.
 */
import { invalid } from "./errors";
import { type Filter, parseFilterText } from "./filter-text";
import { type AttributeDef, findAttribute, type ResourceSchemaDef } from "./schema-definitions";

export type PatchTarget =
  | { kind: "ignored" }
  | { kind: "extension"; schema: ResourceSchemaDef }
  | { kind: "attribute"; extension: ResourceSchemaDef | null; def: AttributeDef; filter?: Filter; sub?: AttributeDef };

const MAX_PATH_LENGTH = 1024;

/** The index of the `]` closing the `[` at `open`, skipping quoted strings; -1 when there is none. */
function closingBracket(text: string, open: number): number {
  let quoted = false;
  for (let i = open + 1; i < text.length; i++) {
    const ch = text[i];
    if (quoted && ch === "\\") i++;
    else if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === "]") return i;
  }
  return -1;
}

export function parsePatchPath(path: string, core: ResourceSchemaDef, extensions: readonly ResourceSchemaDef[] = []): PatchTarget {
  let rest = path.trim();
  if (!rest || rest.length > MAX_PATH_LENGTH) return invalid("invalidPath", "The path is empty or too long.");
  let defs = core.attributes;
  let extension: ResourceSchemaDef | null = null;
  if (rest.toLowerCase().startsWith("urn:")) {
    const lower = rest.toLowerCase();
    const ext = extensions.find((e) => lower === e.id.toLowerCase() || lower.startsWith(`${e.id.toLowerCase()}:`));
    if (ext) {
      if (lower === ext.id.toLowerCase()) return { kind: "extension", schema: ext };
      extension = ext;
      defs = ext.attributes;
      rest = rest.slice(ext.id.length + 1);
    } else if (lower.startsWith(`${core.id.toLowerCase()}:`)) {
      rest = rest.slice(core.id.length + 1);
    } else return { kind: "ignored" };
  }
  const name = /^[A-Za-z$][\w$-]*/.exec(rest)?.[0];
  if (!name) return invalid("invalidPath", `The path ${path} is not a valid attribute path.`);
  let at = name.length;
  let filter: Filter | undefined;
  if (rest[at] === "[") {
    const close = closingBracket(rest, at);
    if (close < 0) return invalid("invalidPath", `The path ${path} has an unclosed "[".`);
    filter = parseFilterText(rest.slice(at + 1, close));
    at = close + 1;
  }
  let subName: string | undefined;
  if (rest[at] === ".") {
    subName = /^[A-Za-z$][\w$-]*/.exec(rest.slice(at + 1))?.[0];
    if (!subName) return invalid("invalidPath", `The path ${path} is not a valid attribute path.`);
    at += 1 + subName.length;
  }
  if (at !== rest.length) return invalid("invalidPath", `The path ${path} is not a valid attribute path.`);
  const def = findAttribute(defs, name);
  if (!def) return { kind: "ignored" };
  if (filter && !def.multiValued) return invalid("invalidPath", `${def.name} is not multi-valued: it takes no filter.`);
  if (subName === undefined) return { kind: "attribute", extension, def, ...(filter ? { filter } : {}) };
  if (def.type !== "complex") return invalid("invalidPath", `${def.name} has no sub-attributes.`);
  const sub = findAttribute(def.subAttributes ?? [], subName);
  if (!sub) return { kind: "ignored" };
  return { kind: "attribute", extension, def, sub, ...(filter ? { filter } : {}) };
}
