/** First on every request: its id, the typed configuration (read once) and the deps services get (clock, db, randomness). */
import type { MiddlewareHandler } from "hono";
import { readConfig } from "../config";
import { D1_BOOKMARK_HEADER, openD1Session } from "../db/d1-session";
import type { AppEnv } from "../http/hono-env";
import { makeDeps } from "../services/deps";
import { DEVICE_TOKEN_HEADER, devCoordinates, numberOrNull, readDeviceToken } from "../services/protection/device-token";

/** Origins by the URL's part before its path, parsed once per isolate (an API sees few hosts); bounded like the route cache. */
const origins = new Map<string, string>();

/** `new URL(url).origin`, without parsing the whole URL of every request. */
function originOf(url: string): string {
  const pathStart = url.indexOf("/", url.indexOf("//") + 2);
  const head = pathStart === -1 ? url : url.slice(0, pathStart);
  let origin = origins.get(head);
  if (origin === undefined) {
    origin = new URL(head).origin;
    if (origins.size >= 100) origins.clear();
    origins.set(head, origin);
  }
  return origin;
}

export const requestContext: MiddlewareHandler<AppEnv> = async (c, next) => {
  const requestId = crypto.randomUUID();
  c.set("requestId", requestId);
  // Read once per request; a misconfigured worker stops here with a ConfigError (plain-text 500).
  const config = readConfig(c.env);
  const testNow = config.allowTestClock ? Number(c.req.header("x-doorman-test-now")) : Number.NaN;
  let defer: ((p: Promise<unknown>) => void) | undefined;
  try {
    const ctx = c.executionCtx;
    defer = (p) => ctx.waitUntil(p.catch((err) => console.error("deferred work failed", err)));
  } catch {
    defer = undefined;
  }
  const session = config.d1ReadReplication ? openD1Session(c.env.DB, c.req.method, c.req.header(D1_BOOKMARK_HEADER)) : null;
  const env = session ? { ...c.env, DB: session.db } : c.env;
  const deps = makeDeps(env, { origin: originOf(c.req.url), nowMs: Number.isFinite(testNow) ? testNow : undefined, defer, config });
  // Where the request comes from, for the event log (the actor is set once the request is authenticated).
  const cf = (c.req.raw as Request & { cf?: { country?: unknown; latitude?: unknown; longitude?: unknown } }).cf;
  deps.audit.ip = c.req.header("cf-connecting-ip") ?? c.req.header("x-real-ip") ?? null;
  deps.audit.userAgent = c.req.header("user-agent")?.slice(0, 512) ?? null;
  // Development only: wrangler dev's request.cf is a fixed placeholder, so the test suites set the country with Cloudflare's header.
  const devCountry = config.environment === "development" ? (c.req.header("cf-ipcountry") ?? null) : null;
  const cfCountry = typeof cf?.country === "string" ? cf.country : null;
  deps.audit.countryCode = devCountry ?? cfCountry;
  deps.audit.signUpCountryCode = config.environment === "development" ? devCountry : cfCountry;
  deps.audit.deviceToken = readDeviceToken(c.req.header(DEVICE_TOKEN_HEADER));
  // Development only, like the country: the test suites place a request on the map (impossible travel); refused in production.
  const geo = config.environment === "development" ? devCoordinates(c.req.header.bind(c.req)) : null;
  deps.audit.latitude = geo ? geo.latitude : numberOrNull(cf?.latitude);
  deps.audit.longitude = geo ? geo.longitude : numberOrNull(cf?.longitude);
  deps.audit.acceptLanguage = c.req.header("accept-language")?.slice(0, 256) ?? null;
  c.set("deps", deps);

  await next();
  const bookmark = session?.bookmark();
  if (bookmark) c.header(D1_BOOKMARK_HEADER, bookmark);
};
