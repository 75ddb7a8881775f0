/** Reads x-stack-* / x-hexclave-* request headers: both prefixes accepted, empty = absent. */

import { KnownError } from "@doorman/shared/known-errors";
import type { Context } from "hono";

type Prefixed = { stack: Map<string, string>; hexclave: Map<string, string> };

/** The request's x-stack-* and x-hexclave-* headers, by name without the prefix: one pass over the headers per request. */
const parsed = new WeakMap<Request, Prefixed>();

function prefixedHeaders(c: Context): Prefixed {
  const raw = c.req.raw;
  let found = parsed.get(raw);
  if (!found) {
    found = { stack: new Map(), hexclave: new Map() };
    // Header names arrive lower-cased; a repeated header is already joined with ", " by the runtime.
    for (const [name, value] of raw.headers) {
      if (name.startsWith("x-stack-")) found.stack.set(name.slice(8), value);
      else if (name.startsWith("x-hexclave-")) found.hexclave.set(name.slice(11), value);
    }
    parsed.set(raw, found);
  }
  return found;
}

export function stackHeader(c: Context, name: string): string | undefined {
  const { stack, hexclave } = prefixedHeaders(c);
  const a = stack.get(name);
  const b = hexclave.get(name);
  if (a && b && a !== b) {
    throw new KnownError("SCHEMA_ERROR", {
      message: `The headers x-stack-${name} and x-hexclave-${name} disagree; send one of them, or the same value in both.`,
    });
  }
  return a || b || undefined;
}

export function hasStackHeader(c: Context, name: string): boolean {
  const { stack, hexclave } = prefixedHeaders(c);
  return stack.has(name) || hexclave.has(name);
}
