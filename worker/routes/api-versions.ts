/**
 * The reference's beta API versions, /api/v2beta1 … /api/v2beta5 (its `src/app/api/migrations`):
 * every route answers there as at /api/latest, except where an older version's wire differs, and
 * there that version's request is translated to the latest one. The only such route is the
 * reference's own demonstration of the mechanism, GET /migration-tests/smart-route-handler:
 *
 * - v1: the route does not exist (404); Doorman's v1 is its latest wire, and it never had it either.
 * - v2beta1: an optional `queryParam`, "n/a" when absent.
 * - v2beta2: `queryParam` is required.
 * - v2beta3: the parameter is renamed `queryParamNew` (still required).
 * - v2beta4 and later (and /api/latest): `queryParamNew` is optional again.
 *
 * (The reference's v2beta5 drops the `offer_*` aliases of its purchase routes; Doorman's payments
 * answer them on every version.)
 */
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../http/hono-env";
import { addRoute, defineRoute, routeGroup } from "../http/route";
import { schemaError } from "../http/validate";

export const BETA_VERSIONS = ["v2beta1", "v2beta2", "v2beta3", "v2beta4", "v2beta5"] as const;
/** The path prefix of a beta version (a Hono path with the version as a parameter). */
export const BETA_VERSION_PREFIX = `/api/:version{${BETA_VERSIONS.join("|")}}`;

const MIGRATION_TESTS = "/migration-tests";

type LatestQuery = { queryParamNew?: string };
const latestQuery = z.strictObject({ queryParamNew: z.string().optional() });
/** Each older version's query, as the latest route's: the translations of the reference's migrations. */
const QUERY_OF_VERSION: Record<string, z.ZodType<LatestQuery, Record<string, string>>> = {
  v2beta1: z.strictObject({ queryParam: z.string().default("n/a") }).transform((q) => ({ queryParamNew: q.queryParam })),
  v2beta2: z.strictObject({ queryParam: z.string() }).transform((q) => ({ queryParamNew: q.queryParam })),
  v2beta3: z.strictObject({ queryParamNew: z.string() }),
};

const smartRouteHandler = defineRoute({
  method: "get",
  path: "/smart-route-handler",
  summary: "The reference's demonstration of API versions: shows the query parameter, as each version names it",
  access: "public",
  response: { status: 200, description: "Human-readable text", schema: z.string(), contentType: "text/plain" },
});

/** GET /migration-tests/smart-route-handler, mounted under /api/latest and each beta version. */
export const migrationTestsRoutes = routeGroup();
addRoute(migrationTestsRoutes, smartRouteHandler, (c) => {
  const version = c.req.param("version") ?? "latest";
  const parsed = (QUERY_OF_VERSION[version] ?? latestQuery).safeParse(c.req.query());
  if (!parsed.success) throw schemaError(c, "query", parsed.error.issues);
  const shown = parsed.data.queryParamNew;
  return c.text(
    [
      "Welcome to the migration test route for SmartRouteHandler! This route only exists for demonstration purposes and has no practical functionality.",
      "",
      shown ? `The query parameter you passed in is: ${shown}` : "You did not pass the query parameter; that is fine at this version.",
      "",
      "Here's what it does:",
      "",
      "- v1: This route does not yet exist; it shows a 404 error.",
      "- v2beta1: Takes an optional query parameter 'queryParam' and displays it. If not given, it defaults to the string \"n/a\".",
      "- v2beta2: The query parameter is now required.",
      "- v2beta3: The query parameter is now called 'queryParamNew'.",
      "- v2beta4: The query parameter is now optional again.",
    ].join("\n"),
  );
});

/**
 * A beta-version request for any other route: answered as /api/latest answers it (the whole
 * pipeline runs once, on the rewritten request). The versioned routes above go on to the pipeline.
 */
export async function serveBetaVersion(
  c: Context<AppEnv>,
  next: () => Promise<void>,
  dispatch: (request: Request) => Response | Promise<Response>,
): Promise<Response | undefined> {
  const url = new URL(c.req.url);
  const rest = url.pathname.replace(/^\/api\/[^/]+/, "");
  if (rest === MIGRATION_TESTS || rest.startsWith(`${MIGRATION_TESTS}/`)) {
    await next();
    return undefined;
  }
  url.pathname = `/api/latest${rest}`;
  return dispatch(new Request(url, c.req.raw));
}
