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
import { guardFor } from "./guard";
import type { AppEnv } from "./hono-env";
import { enforceRouteLimits } from "./limit";
import { toOpenApiRoute } from "./openapi-route";
import { schemaErrorHook } from "./request";
import type { RouteHandler, RouteInput, RouteSpec } from "./route-spec";
import { parseBody, parseQuery } from "./validate";

export type { Method, ResponseDecl, RouteHandler, RouteInput, RouteSpec } from "./route-spec";

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
    // Params go through the default hook; the query is read below with its first value per key.
    request: { params: spec.params },
    responses: {},
    middleware: [guardFor(spec)],
  });
  app.openapi(route, async (c) => {
    const auth = c.get("auth");
    const schema = spec.clientBody && auth?.type === "client" ? spec.clientBody : spec.body;
    const query = spec.query ? parseQuery(c, spec.query) : undefined;
    const body = schema ? await parseBody(c, schema, spec.maxBodyBytes) : undefined;
    const settleLimits = await enforceRouteLimits(c, spec.rateLimit, body);
    const input = {
      auth,
      params: spec.params ? c.req.valid("param" as never) : undefined,
      query,
      body,
    } as RouteInput<S>;
    const response = await handler(c as unknown as Context<AppEnv>, input);
    await settleLimits(response);
    return response;
  });
  return app;
}
