/**
 * A project's hosted pages on the server: which project a request is for (by the `/p/{id}` in its
 * path, or by its Host when that is a custom domain), and the page's data: the project, its brand,
 * its client app config (the derived hosted key, its own cookies, where to return after sign-in,
 * sign-up and sign-out). An `after_auth_return_to` the project does not trust is dropped here.
 */
import { type HostedPages, lookupHostedPages } from "@doorman/sdk";
import { RETURN_TO_PARAM } from "@doorman/sdk/urls";
import { DEFAULT_HANDLER_PATH } from "@doorman/shared/constants";
import { hostedHandlerPath } from "@doorman/shared/hosted-pages";
import { type AppLoadContext, redirect } from "@remix-run/cloudflare";
import type { HandlerAppConfig } from "./handler-app";
import { apiFetch, type HandlerServerData, loadProjectView, requestLanguage } from "./handler-data.server";
import { hasSessionCookie } from "./handler-session";

/** Host → project id (or null: not a custom domain), remembered briefly: the console asks on every request. */
const hostCache = new Map<string, { projectId: string | null; until: number }>();
const HOST_CACHE_MS = 30_000;
const HOST_CACHE_MAX = 512;

/** The project whose custom domain the request's Host is, or null (Doorman's own host, or an unmapped one). */
export async function customDomainProject(request: Request, context: AppLoadContext): Promise<string | null> {
  const url = new URL(request.url);
  const host = url.hostname.toLowerCase();
  // Loopback and bare IPs are never a project's custom domain (the lookup would refuse them anyway).
  if (host === "localhost" || /^[\d.]+$/.test(host) || host.startsWith("[")) return null;
  const now = Date.now();
  const cached = hostCache.get(host);
  if (cached && cached.until > now) return cached.projectId;
  let projectId: string | null = null;
  try {
    const pages = await lookupHostedPages({ baseUrl: url.origin, host, fetch: apiFetch(context) });
    projectId = pages?.projectId ?? null;
  } catch (error) {
    // The API is down: serve the request as Doorman's own host (nothing of a project leaks that way).
    console.warn("[hosted] could not look up the Host", error);
    return null;
  }
  if (hostCache.size >= HOST_CACHE_MAX) hostCache.clear();
  hostCache.set(host, { projectId, until: now + HOST_CACHE_MS });
  return projectId;
}

/** The absolute form of the request's after_auth_return_to, or undefined. */
function requestedReturnTo(url: URL): string | undefined {
  const raw = url.searchParams.get(RETURN_TO_PARAM);
  if (!raw) return undefined;
  try {
    return new URL(raw, url.origin).toString();
  } catch {
    return raw;
  }
}

function appConfig(pages: HostedPages, basePath: string, cookiePath: string): HandlerAppConfig {
  // After sign-in/up: back to the app (its after_auth_return_to, else its first trusted domain), else the account page.
  const back = pages.returnTo ?? pages.defaultReturnUrl;
  const originOf = (u: string | null) => {
    try {
      return u ? [new URL(u).origin] : [];
    } catch {
      return [];
    }
  };
  return {
    projectId: pages.projectId,
    publishableClientKey: pages.publishableClientKey,
    basePath,
    cookiePath,
    urls: {
      afterSignIn: back ?? `${basePath}/account-settings`,
      afterSignUp: back ?? `${basePath}/account-settings`,
      afterSignOut: back ?? `${basePath}/sign-in`,
      home: pages.defaultReturnUrl ?? `${basePath}/sign-in`,
    },
    trustedOrigins: [...new Set([...pages.trustedOrigins, ...originOf(pages.returnTo)])],
  };
}

/**
 * The data of a hosted page: `where` says how the project was found. Throws a 404 for an unknown
 * project, and a redirect without after_auth_return_to when the project does not trust it.
 */
export async function loadHostedHandlerData(
  request: Request,
  context: AppLoadContext,
  where: { projectId: string } | { customDomainOf: string },
): Promise<HandlerServerData> {
  const url = new URL(request.url);
  const onCustomDomain = "customDomainOf" in where;
  const projectId = onCustomDomain ? where.customDomainOf : where.projectId;
  const returnTo = requestedReturnTo(url);
  const pages = await lookupHostedPages({ baseUrl: url.origin, projectId, returnTo, fetch: apiFetch(context) });
  if (!pages) throw new Response("There is no project here. Check the address of the page.", { status: 404, statusText: "Not Found" });
  if (returnTo && !pages.returnTo) {
    // Why: an after_auth_return_to the project does not trust is ignored, never followed (open redirect).
    url.searchParams.delete(RETURN_TO_PARAM);
    throw redirect(url.pathname + url.search);
  }
  const basePath = onCustomDomain ? DEFAULT_HANDLER_PATH : hostedHandlerPath(pages.projectId);
  const app = appConfig(pages, basePath, onCustomDomain ? "/" : basePath);
  return {
    project: await loadProjectView(request, context, app),
    signedOut: !hasSessionCookie(request.headers.get("cookie"), pages.projectId),
    origin: url.origin,
    app,
    brand: { name: pages.displayName, logoUrl: safeLogoUrl(pages.logoUrl), href: pages.defaultReturnUrl ?? `${basePath}/sign-in` },
    ...requestLanguage(request),
  };
}

/** Only https and inline image logos are shown (the page's CSP allows no other image source). */
function safeLogoUrl(url: string | null): string | null {
  if (!url) return null;
  return /^https:\/\//i.test(url) || /^data:image\//i.test(url) ? url : null;
}
