/**
 * The request pipeline around every route: request id, deps (clock, db), CORS, the
 * override-error-status rewrite and no-store caching.
 */
import type { MiddlewareHandler } from "hono";
import { makeDeps } from "../lib/context";
import { applyOverrideErrorStatus } from "../lib/errors";
import type { AppEnv } from "../lib/hono-env";
import { hasStackHeader } from "./headers";

const ALLOWED_HEADERS = [
  "content-type",
  "authorization",
  ...[
    "project-id",
    "branch-id",
    "override-error-status",
    "random-nonce",
    "client-version",
    "disable-artificial-development-delay",
    "access-type",
    "publishable-client-key",
    "secret-server-key",
    "super-secret-admin-key",
    "admin-access-token",
    "refresh-token",
    "access-token",
    "allow-anonymous-user",
  ].flatMap((h) => [`x-stack-${h}`, `x-hexclave-${h}`]),
  "baggage",
  "sentry-trace",
  "x-vercel-protection-bypass",
  "ngrok-skip-browser-warning",
].join(", ");

const EXPOSED_HEADERS = [
  "content-type",
  "x-stack-actual-status",
  "x-stack-known-error",
  "x-hexclave-actual-status",
  "x-hexclave-known-error",
  "x-stack-request-id",
  "x-hexclave-request-id",
].join(", ");

function setCors(headers: Headers) {
  // Any origin may call: the API authenticates by headers, never by cookies (credentials: omit).
  headers.set("access-control-allow-origin", "*");
  headers.set("access-control-allow-methods", "GET, POST, PUT, PATCH, DELETE, OPTIONS");
  headers.set("access-control-allow-headers", ALLOWED_HEADERS);
  headers.set("access-control-expose-headers", EXPOSED_HEADERS);
  headers.set("access-control-max-age", "86400");
}

export const pipeline: MiddlewareHandler<AppEnv> = async (c, next) => {
  const requestId = crypto.randomUUID();
  c.set("requestId", requestId);
  const testNow = c.env.ALLOW_TEST_CLOCK === "true" ? Number(c.req.header("x-doorman-test-now")) : Number.NaN;
  let defer: ((p: Promise<unknown>) => void) | undefined;
  try {
    const ctx = c.executionCtx;
    defer = (p) => ctx.waitUntil(p.catch((err) => console.error("deferred work failed", err)));
  } catch {
    defer = undefined;
  }
  c.set("deps", makeDeps(c.env, { origin: new URL(c.req.url).origin, nowMs: Number.isFinite(testNow) ? testNow : undefined, defer }));

  if (c.req.method === "OPTIONS") {
    const headers = new Headers({ "x-stack-request-id": requestId });
    setCors(headers);
    return new Response(null, { status: 204, headers });
  }
  await next();

  const res = applyOverrideErrorStatus(c.res, hasStackHeader(c, "override-error-status"));
  const headers = new Headers(res.headers);
  setCors(headers);
  headers.set("x-stack-request-id", requestId);
  headers.set("x-hexclave-request-id", requestId);
  if (!headers.has("cache-control")) headers.set("cache-control", "no-store, max-age=0");
  if (headers.get("content-type") === "application/json") headers.set("content-type", "application/json; charset=utf-8");
  c.res = new Response(res.body, { status: res.status, statusText: res.statusText, headers });
};
