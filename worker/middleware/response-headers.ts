/**
 * Response conventions of wire §2 on every answer: the override-error-status rewrite (4xx → 200
 * with the real status in a header), the request id under both prefixes, no-store caching,
 * nosniff, a JSON charset, and CORS (middleware/cors.ts; preflights answer here before any route).
 * The headers are set on the route's own response: copying it (new Headers, new Response, and Hono's
 * `c.res =` copying it once more) was a measurable share of a read's CPU (docs/perf/README.md).
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/hono-env";
import { applyOverrideErrorStatus } from "../lib/errors";
import { preflight, setCors } from "./cors";
import { hasStackHeader } from "./headers";

function setResponseHeaders(headers: Headers, requestId: string): void {
  headers.set("x-stack-request-id", requestId);
  headers.set("x-hexclave-request-id", requestId);
  // Why: bodies carry tokens and keys; no cache (shared or browser) may keep them unless a route says so.
  if (!headers.has("cache-control")) headers.set("cache-control", "no-store, max-age=0");
  // Why: a JSON body must never be sniffed into HTML or script by a browser.
  headers.set("x-content-type-options", "nosniff");
  if (headers.get("content-type") === "application/json") headers.set("content-type", "application/json; charset=utf-8");
  setCors(headers);
}

export const responseHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method === "OPTIONS") return preflight(c.get("requestId"));
  await next();
  const requestId = c.get("requestId");
  let res = applyOverrideErrorStatus(c.res, hasStackHeader(c, "override-error-status"));
  try {
    setResponseHeaders(res.headers, requestId);
  } catch {
    // Immutable headers (a response passed through from fetch()): one copy.
    res = new Response(res.body, { status: res.status, statusText: res.statusText, headers: new Headers(res.headers) });
    setResponseHeaders(res.headers, requestId);
  }
  if (res !== c.res) {
    // Hono's setter copies the previous response's headers onto a new one; this one already has them all.
    c.res = undefined;
    c.res = res;
  }
};
