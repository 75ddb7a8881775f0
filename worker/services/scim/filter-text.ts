/**
 * Parsing a SCIM filter (RFC 7644 §3.4.2.2) with scim2-parse-filter, made safe for hostile input
 * first: the parser's tokenizer has a quoted-string pattern that backtracks exponentially on line
 * breaks inside an unterminated string, and it recurses per parenthesis, so a filter is refused
 * (invalidFilter) when it is long, holds control characters or nests deeply, before it is parsed.
 */
import { type Filter, parse } from "scim2-parse-filter";
import { invalid } from "./errors";

export type { Filter } from "scim2-parse-filter";

export const MAX_FILTER_LENGTH = 1024;
const MAX_NESTING = 8;

export function parseFilterText(text: string): Filter {
  if (text.length > MAX_FILTER_LENGTH) invalid("invalidFilter", `The filter is longer than ${MAX_FILTER_LENGTH} characters.`);
  // Why: control characters (line breaks above all) make the parser's string pattern backtrack exponentially.
  if (/[\u0000-\u001f\u007f]/.test(text)) invalid("invalidFilter", "The filter contains control characters.");
  let depth = 0;
  let deepest = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\\" && quoted) i++;
    else if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === "(" || ch === "[")) deepest = Math.max(deepest, ++depth);
    else if (!quoted && (ch === ")" || ch === "]")) depth--;
  }
  if (deepest > MAX_NESTING) invalid("invalidFilter", `The filter nests deeper than ${MAX_NESTING} levels.`);
  try {
    return parse(text);
  } catch {
    return invalid("invalidFilter", "The filter is not a valid SCIM filter expression.");
  }
}
