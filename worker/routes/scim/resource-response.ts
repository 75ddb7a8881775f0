/**
 * Answers for one SCIM resource: its JSON with the ETag header (RFC 7644 §3.14), Location on a
 * create, 304 for a GET whose If-None-Match holds the current version, and list responses.
 */
import type { Context } from "hono";
import type { AppEnv } from "../../http/hono-env";
import { readIfMatch } from "../../services/scim/requests";
import { LIST_RESPONSE } from "../../services/scim/urns";
import { etagOf, type Projection, project, type ScimResource } from "../../services/scim/views";
import { scimJson } from "./respond";

export function resourceResponse(
  c: Context<AppEnv>,
  resource: ScimResource,
  version: number,
  projection: Projection,
  status = 200,
): Response {
  const etag = etagOf(version);
  const headers: Record<string, string> = { etag };
  if (status === 201) headers.location = resource.meta.location;
  if (status === 200 && c.req.method === "GET") {
    const held = readIfMatch(c.req.header("if-none-match"));
    if (held?.includes(version)) return new Response(null, { status: 304, headers });
  }
  return scimJson(c, project(resource, projection), status, headers);
}

export function listResponse(
  c: Context<AppEnv>,
  page: { total: number; startIndex: number },
  resources: Record<string, unknown>[],
  projection: Projection,
): Response {
  return scimJson(c, {
    schemas: [LIST_RESPONSE],
    totalResults: page.total,
    startIndex: page.startIndex,
    itemsPerPage: resources.length,
    Resources: resources.map((r) => project(r, projection)),
  });
}

/** The If-Match precondition of a write. */
export const ifMatchOf = (c: Context<AppEnv>) => readIfMatch(c.req.header("if-match"));
