/** Reads x-stack-* / x-hexclave-* request headers: both prefixes accepted, empty = absent. */
import type { Context } from "hono";
import { KnownError } from "../../sdk/src/shared/known-errors";

export function stackHeader(c: Context, name: string): string | undefined {
  const a = c.req.header(`x-stack-${name}`);
  const b = c.req.header(`x-hexclave-${name}`);
  if (a && b && a !== b) {
    throw new KnownError("SCHEMA_ERROR", {
      message: `The headers x-stack-${name} and x-hexclave-${name} disagree; send one of them, or the same value in both.`,
    });
  }
  return a || b || undefined;
}

export function hasStackHeader(c: Context, name: string): boolean {
  return c.req.header(`x-stack-${name}`) !== undefined || c.req.header(`x-hexclave-${name}`) !== undefined;
}
