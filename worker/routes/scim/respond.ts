/**
 * How the SCIM endpoints answer (RFC 7644): `application/scim+json` (or plain JSON when the client
 * accepts only that), the resource's weak ETag, and errors as §3.12 JSON. The route group's error
 * handler turns an unreadable or mistyped request (the declaration's SCHEMA_ERROR / BODY_PARSING_ERROR)
 * into a SCIM 400, and a body over the limit into 413.
 */
import { KnownError } from "@doorman/shared/known-errors";
import type { Context, ErrorHandler } from "hono";
import type { AppEnv } from "../../http/hono-env";
import { BodyTooLargeError } from "../../http/validate";
import type { ScimProblem } from "../../services/scim/errors";
import { ERROR_MESSAGE, SCIM_CONTENT_TYPE } from "../../services/scim/urns";

function contentType(c: Context<AppEnv>): string {
  const accept = (c.req.header("accept") ?? "").toLowerCase();
  // RFC 7644 §8.1: scim+json, unless the client asked for plain JSON only.
  return accept.includes("application/json") && !accept.includes(SCIM_CONTENT_TYPE) ? "application/json" : SCIM_CONTENT_TYPE;
}

export function scimJson(c: Context<AppEnv>, body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": `${contentType(c)}; charset=utf-8`, "cache-control": "no-store", ...headers },
  });
}

export function scimProblemResponse(c: Context<AppEnv>, problem: ScimProblem): Response {
  const headers: Record<string, string> = {};
  // RFC 6750 §3: a refused bearer token is named in the challenge.
  if (problem.status === 401) headers["www-authenticate"] = 'Bearer realm="SCIM"';
  if (problem.retryAfterSeconds !== undefined) headers["retry-after"] = String(problem.retryAfterSeconds);
  const body = {
    schemas: [ERROR_MESSAGE],
    status: String(problem.status),
    ...(problem.scimType ? { scimType: problem.scimType } : {}),
    detail: problem.detail,
  };
  return scimJson(c, body, problem.status, headers);
}

/** The group's error handler: the declaration's input errors as SCIM errors; anything else goes on to the app's. */
export const scimErrorHandler: ErrorHandler<AppEnv> = (err, c) => {
  if (err instanceof BodyTooLargeError) return scimProblemResponse(c, { ok: false, status: 413, detail: err.message });
  if (err instanceof KnownError && err.code === "BODY_PARSING_ERROR")
    return scimProblemResponse(c, { ok: false, status: 400, scimType: "invalidSyntax", detail: err.message });
  if (err instanceof KnownError && err.code === "SCHEMA_ERROR") {
    // The message names our own parameters and limits (JSON, so nothing in it is markup).
    const detail = typeof err.details?.message === "string" ? err.details.message : err.message;
    // A body that is not even an object is unreadable as a resource (invalidSyntax); a bad id or query value is invalidValue.
    const scimType = /^\s+- body\b/m.test(detail) ? "invalidSyntax" : "invalidValue";
    return scimProblemResponse(c, { ok: false, status: 400, scimType, detail });
  }
  throw err;
};
