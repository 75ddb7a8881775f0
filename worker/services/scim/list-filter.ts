/**
 * The filters a SCIM list answers (RFC 7644 §3.4.2.2), reduced to the conditions the queries take.
 * Supported, as the IdPs use them: Users `userName eq`, `externalId eq`, `emails.value eq` (also
 * `emails[value eq …]`, with `type eq` inside the brackets), Groups `displayName eq`, `externalId eq`,
 * each joined with `and`. Anything else is invalidFilter, never a silent full list. userName compares
 * case-insensitively (not case-exact, RFC 7643 §4.1), externalId and displayName exactly.
 */
import type { ScimGroupConditions } from "../../db/queries/scim-groups";
import type { ScimUserConditions } from "../../db/queries/sso-identities";
import { invalid } from "./errors";
import { type Filter, parseFilterText } from "./filter-text";
import { ENTERPRISE_USER_SCHEMA, GROUP_SCHEMA, USER_SCHEMA } from "./urns";

const USER_HINT = "Supported: userName eq, externalId eq, emails.value eq, joined with and.";
const GROUP_HINT = "Supported: displayName eq, externalId eq, joined with and.";

/** An attribute path without its core schema URN prefix, lower-cased. */
function plainPath(path: string, schema: string): string {
  const lower = path.toLowerCase();
  const prefix = `${schema.toLowerCase()}:`;
  if (lower.startsWith(ENTERPRISE_USER_SCHEMA.toLowerCase())) return lower;
  return lower.startsWith(prefix) ? lower.slice(prefix.length) : lower;
}

/** The `and`-joined parts of a filter (flattened). */
function conjuncts(f: Filter): Filter[] {
  return f.op === "and" ? f.filters.flatMap(conjuncts) : [f];
}

function stringEq(f: Filter, hint: string): string {
  if (f.op !== "eq" || typeof f.compValue !== "string") return invalid("invalidFilter", `Only eq with a string is supported. ${hint}`);
  return f.compValue;
}

export function userFilterConditions(text: string | undefined): ScimUserConditions {
  const out: ScimUserConditions = { userNames: [], externalIds: [], emails: [] };
  if (text === undefined || text.trim() === "") return out;
  for (const part of conjuncts(parseFilterText(text))) {
    if (part.op === "[]") {
      if (plainPath(part.attrPath, USER_SCHEMA) !== "emails") return invalid("invalidFilter", USER_HINT);
      const email: { value?: string; type?: string } = {};
      for (const inner of conjuncts(part.valFilter)) {
        if (!("attrPath" in inner)) return invalid("invalidFilter", USER_HINT);
        const sub = inner.attrPath.toLowerCase();
        if (sub === "value") email.value = stringEq(inner, USER_HINT);
        else if (sub === "type") email.type = stringEq(inner, USER_HINT);
        else return invalid("invalidFilter", USER_HINT);
      }
      out.emails.push(email);
      continue;
    }
    if (!("attrPath" in part)) return invalid("invalidFilter", USER_HINT);
    const path = plainPath(part.attrPath, USER_SCHEMA);
    if (path === "username") out.userNames.push(stringEq(part, USER_HINT).toLowerCase());
    else if (path === "externalid") out.externalIds.push(stringEq(part, USER_HINT));
    else if (path === "emails.value" || path === "emails") out.emails.push({ value: stringEq(part, USER_HINT) });
    else return invalid("invalidFilter", `The filter attribute ${part.attrPath} is not supported. ${USER_HINT}`);
  }
  return out;
}

export function groupFilterConditions(text: string | undefined): ScimGroupConditions {
  const out: ScimGroupConditions = { displayNames: [], externalIds: [] };
  if (text === undefined || text.trim() === "") return out;
  for (const part of conjuncts(parseFilterText(text))) {
    if (part.op === "[]" || !("attrPath" in part)) return invalid("invalidFilter", GROUP_HINT);
    const path = plainPath(part.attrPath, GROUP_SCHEMA);
    if (path === "displayname") out.displayNames.push(stringEq(part, GROUP_HINT));
    else if (path === "externalid") out.externalIds.push(stringEq(part, GROUP_HINT));
    else return invalid("invalidFilter", `The filter attribute ${part.attrPath} is not supported. ${GROUP_HINT}`);
  }
  return out;
}
