/**
 * Request parsing and validation: body (JSON, form, text), query and params through zod
 * schemas. Unknown keys are rejected; failures become SCHEMA_ERROR / BODY_PARSING_ERROR.
 */

import { KnownError } from "@doorman/shared/known-errors";
import { z as openapiZ } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";

/** Largest body we read; anything bigger is refused before parsing. */
export const MAX_BODY_BYTES = 1_000_000;

/** The body is larger than the route reads: BODY_PARSING_ERROR on this wire, 413 on a protocol's own (SCIM). */
export class BodyTooLargeError extends KnownError {
  constructor(readonly maxBytes: number) {
    super("BODY_PARSING_ERROR", undefined, `Request body is larger than ${maxBytes} bytes.`);
  }
}

/** JSON media types: plain JSON, and SCIM's (RFC 7644 §8.1), which IdPs send. */
const JSON_TYPES = new Set(["application/json", "application/scim+json"]);

export function formatIssues(method: string, path: string, issues: z.core.$ZodIssue[]): string {
  const lines = issues.map((i) => {
    const where = i.path.length ? i.path.join(".") : "body";
    // The reference's wording for unknown keys, which its clients and tests read.
    if (i.code === "unrecognized_keys") return `  - ${where} contains unknown properties: ${i.keys.join(", ")}`;
    if (i.code === "invalid_value" && i.values.length > 1)
      return `  - ${where} must be one of the following values: ${i.values.map(String).join(", ")}`;
    return `  - ${where}: ${i.message}`;
  });
  return `Request validation failed on ${method} ${path}:\n${lines.join("\n")}`;
}

/** Deepest nesting a body may have; real bodies (metadata included) stay far below it. */
export const MAX_BODY_DEPTH = 64;

/** How deeply arrays and objects nest in a parsed JSON value (iterative: no recursion on hostile input). */
export function nestingDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (typeof v !== "object" || v === null) continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    if (deepest > MAX_BODY_DEPTH) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return deepest;
}

export async function readBody(c: Context, maxBytes = MAX_BODY_BYTES): Promise<unknown> {
  if (c.req.method === "GET" || c.req.method === "HEAD") return undefined;
  const declared = Number(c.req.header("content-length") ?? "0");
  if (declared > maxBytes) throw new BodyTooLargeError(maxBytes);
  // Bytes, then UTF-8: workerd warns when .text() reads a form-encoded body.
  const text = new TextDecoder().decode(await c.req.arrayBuffer());
  if (text.length > maxBytes) throw new BodyTooLargeError(maxBytes);
  if (text.trim() === "") return undefined;
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/x-www-form-urlencoded") return Object.fromEntries(new URLSearchParams(text));
  if (JSON_TYPES.has(type) || type === "text/plain" || type === "application/octet-stream" || type === "") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new KnownError("BODY_PARSING_ERROR", undefined, "The request body is not valid JSON.");
    }
    // Validators and serialisers recurse: a 5,000-deep body would overflow the stack (a 500), so refuse it here.
    if (nestingDepth(parsed) > MAX_BODY_DEPTH)
      throw new KnownError("BODY_PARSING_ERROR", undefined, `The request body is nested deeper than ${MAX_BODY_DEPTH} levels.`);
    return parsed;
  }
  throw new KnownError("BODY_PARSING_ERROR", undefined, `Unsupported content-type: ${type}`);
}

/** The one way a validation failure answers: SCHEMA_ERROR naming each field under its request part. */
export function schemaError(c: Context, where: string, issues: readonly z.core.$ZodIssue[]): KnownError {
  const located = issues.map((i) => ({ ...i, path: [where, ...i.path] }) as z.core.$ZodIssue);
  return new KnownError("SCHEMA_ERROR", { message: formatIssues(c.req.method, new URL(c.req.url).pathname, located) });
}

function check<T extends z.ZodType>(c: Context, schema: T, value: unknown, where: string): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw schemaError(c, where, result.error.issues);
  return result.data;
}

/** Parses and validates the body (at most `maxBytes`). An absent body is validated as `{}`. */
export async function parseBody<T extends z.ZodType>(c: Context, schema: T, maxBytes?: number): Promise<z.infer<T>> {
  const body = await readBody(c, maxBytes);
  return check(c, schema, body ?? {}, "body");
}

/** Validates the query; a repeated key counts once (its first value), as it always has on this wire. */
export function parseQuery<T extends z.ZodType>(c: Context, schema: T): z.infer<T> {
  return check(c, schema, c.req.query(), "query");
}

/** "true"/"false" query flags. */
export const queryBool = z.enum(["true", "false"]).transform((v) => v === "true");
/** Any JSON value; a named OpenAPI component, since the recursive schema cannot be inlined. */
export const jsonValue = openapiZ.json().openapi("JsonValue", { description: "Any JSON value." });
export const userIdOrMe = z.union([z.literal("me"), z.uuid()]);
