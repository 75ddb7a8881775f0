/**
 * A route declared once. `defineRoute` holds the method, path, access levels, request and
 * response schemas, the known errors the route can answer and its rate-limit policy; `addRoute`
 * mounts it, and that one declaration drives the access guard, validation, the rate limit, the
 * OpenAPI document (openapi.ts) and docs/api.md.
 *
 * @example
 * const getMe = defineRoute({
 *   method: "get", path: "/me", summary: "The signed-in user",
 *   access: ["client", "server", "admin"], user: true,
 *   response: userClientSchema, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER"],
 * });
 * export const usersRoutes = routeGroup();
 * addRoute(usersRoutes, getMe, (c, { auth }) => c.json(view(auth, auth.user)));
 */
import { createRoute, OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { z } from "zod";
import type { KnownErrorCode } from "../../sdk/src/shared/known-errors";
import type { AppEnv } from "../lib/hono-env";
import type { RateLimitRule } from "../services/rate-limit";
import type { AccessType, RequestAuth } from "../services/request-auth";
import { guardFor } from "./guard";
import { enforceRouteLimits } from "./limit";
import { toOpenApiRoute } from "./openapi-route";
import { type AuthWithUser, schemaErrorHook } from "./request";
import { parseBody } from "./validate";

export type Method = "get" | "post" | "put" | "patch" | "delete";

/** A response: a JSON schema (status 200), or a status with a description and an optional schema. */
export type ResponseDecl = z.ZodType | { status: number; description: string; schema?: z.ZodType; contentType?: string };

export type RouteSpec = {
  method: Method;
  /** OpenAPI style, relative to the group's mount point: `/users/{userId}`. */
  path: string;
  summary: string;
  description?: string;
  /** Who may call: access levels, or "public" (no credentials needed; auth is read when sent). */
  access: readonly [AccessType, ...AccessType[]] | "public";
  /** Needs a signed-in user: CANNOT_GET_OWN_USER_WITHOUT_USER otherwise. */
  user?: boolean;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** A narrower body for client callers (server-only fields are a SCHEMA_ERROR for them). */
  clientBody?: z.ZodType;
  /** Media types documented for the body; JSON by default (the reader also takes form and text bodies). */
  bodyMediaTypes?: readonly string[];
  response: ResponseDecl | readonly ResponseDecl[];
  /** Known errors this route answers besides the authentication ones the access levels imply. */
  errors?: readonly KnownErrorCode[];
  /** Rate limits, checked after validation: per caller IP, and per `body.email`. */
  rateLimit?: { ip?: RateLimitRule; email?: RateLimitRule };
};

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

/** What a handler receives: the caller and the validated request parts. */
export type RouteInput<S extends RouteSpec> = {
  auth: S["access"] extends "public" ? RequestAuth | null : S["user"] extends true ? AuthWithUser : RequestAuth;
  params: Infer<S["params"]>;
  query: Infer<S["query"]>;
  body: Infer<S["body"]>;
};

export type RouteHandler<S extends RouteSpec> = (c: Context<AppEnv>, input: RouteInput<S>) => Response | Promise<Response>;

/** Declares a route; the literal types are kept so handlers get typed input. */
export function defineRoute<const S extends RouteSpec>(spec: S): S {
  return spec;
}

/** A group of routes (one resource), validated through the one SCHEMA_ERROR hook. */
export function routeGroup(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({ strict: false, defaultHook: schemaErrorHook });
}

/**
 * Mounts a declared route: guard (before validation, as the wire orders it), params and query
 * through the default hook, the body through the request reader, then the rate limit, then the handler.
 */
export function addRoute<S extends RouteSpec>(app: OpenAPIHono<AppEnv>, spec: S, handler: RouteHandler<S>): OpenAPIHono<AppEnv> {
  app.openAPIRegistry.registerPath(toOpenApiRoute(spec));
  const route: RouteConfig = createRoute({
    method: spec.method,
    path: spec.path,
    hide: true,
    request: { params: spec.params, query: spec.query },
    responses: {},
    middleware: [guardFor(spec)],
  });
  app.openapi(route, async (c) => {
    const auth = c.get("auth");
    const schema = spec.clientBody && auth?.type === "client" ? spec.clientBody : spec.body;
    const body = schema ? await parseBody(c, schema) : undefined;
    await enforceRouteLimits(c, spec.rateLimit, body);
    const input = {
      auth,
      params: spec.params ? c.req.valid("param" as never) : undefined,
      query: spec.query ? c.req.valid("query" as never) : undefined,
      body,
    } as RouteInput<S>;
    return handler(c as unknown as Context<AppEnv>, input);
  });
  return app;
}
