/**
 * Response conventions of wire §2 on every answer: the override-error-status rewrite (4xx → 200
 * with the real status in a header), the request id under both prefixes, no-store caching,
 * nosniff and a JSON charset.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/hono-env";
import { applyOverrideErrorStatus } from "../lib/errors";
import { hasStackHeader } from "./headers";

export const responseHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const requestId = c.get("requestId");
  const res = applyOverrideErrorStatus(c.res, hasStackHeader(c, "override-error-status"));
  const headers = new Headers(res.headers);
  headers.set("x-stack-request-id", requestId);
  headers.set("x-hexclave-request-id", requestId);
  // Why: bodies carry tokens and keys; no cache (shared or browser) may keep them unless a route says so.
  if (!headers.has("cache-control")) headers.set("cache-control", "no-store, max-age=0");
  // Why: a JSON body must never be sniffed into HTML or script by a browser.
  headers.set("x-content-type-options", "nosniff");
  if (headers.get("content-type") === "application/json") headers.set("content-type", "application/json; charset=utf-8");
  c.res = new Response(res.body, { status: res.status, statusText: res.statusText, headers });
};
