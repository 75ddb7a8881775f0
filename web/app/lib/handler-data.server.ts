/**
 * What the server knows before rendering a handler page: the project's client view (which sign-in
 * methods are on, its name), whether the request carries a session cookie of it, the app config
 * of the page and, for a project's hosted pages, its brand. The internal project's pages and any
 * project's hosted pages (hosted-pages.server.ts) both end here. Both carry the reader's language
 * (Accept-Language), so the server renders what the browser will hydrate.
 */

import { parseAcceptLanguage, resolveLocale, SDK_LOCALES, type StackProjectView, type Translations } from "@doorman/sdk/react";
import { allLocales } from "@doorman/sdk/react/i18n/locales";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { readPublishableClientKey } from "./env.server";
import { type HandlerAppConfig, internalAppConfig } from "./handler-app";
import { hasSessionCookie } from "./handler-session";

/** The name and logo a hosted page shows instead of Doorman's, and where the name links. */
export type HandlerBrand = { name: string; logoUrl: string | null; href: string };

export type HandlerServerData = {
  /** The project, or null when it could not be read (the browser then loads it). */
  project: StackProjectView | null;
  /** True when the request has no session cookie: nobody is signed in. */
  signedOut: boolean;
  /** The page's origin (the server-render app's base URL). */
  origin: string;
  /** The page's client app; absent = the internal project's (the console's). */
  app?: HandlerAppConfig;
  /** A project's hosted pages: its brand; absent = Doorman's. */
  brand?: HandlerBrand;
  /** The components' locale (one of SDK_LOCALES); absent: English. */
  locale?: string;
  /**
   * That locale's catalogue, sent with the page (a few KB) so the browser hydrates with the same
   * strings without downloading the other twelve; absent for English (built into the SDK).
   */
  translations?: Translations;
};

/**
 * The best of the SDK's locales for the request's Accept-Language (English when none fits).
 *
 * @example
 * requestLocale(new Request(url, { headers: { "accept-language": "de-AT,de;q=0.9" } })); // "de"
 */
export function requestLocale(request: Request): string {
  return resolveLocale(parseAcceptLanguage(request.headers.get("accept-language")), SDK_LOCALES);
}

/** The page's locale and, unless English, its catalogue (for every handler page, internal or hosted). */
export function requestLanguage(request: Request): Pick<HandlerServerData, "locale" | "translations"> {
  const locale = requestLocale(request);
  const catalogue = allLocales[locale];
  return { locale, ...(locale !== "en" && catalogue ? { translations: { [locale]: catalogue } } : {}) };
}

/** Sends a request to the API: through the service binding when there is one, else to the same origin. */
export function apiFetch(context: AppLoadContext): (request: Request) => Promise<Response> {
  const binding = context.cloudflare?.env?.API;
  return (request) => (binding ? binding.fetch(request) : fetch(request));
}

/** GET /api/v1/projects/current as the page's client app. */
export async function loadProjectView(
  request: Request,
  context: AppLoadContext,
  app: Pick<HandlerAppConfig, "projectId" | "publishableClientKey">,
): Promise<StackProjectView | null> {
  const url = new URL("/api/v1/projects/current", request.url);
  const api = new Request(url, {
    headers: {
      "x-stack-project-id": app.projectId,
      "x-stack-access-type": "client",
      "x-stack-publishable-client-key": app.publishableClientKey,
    },
  });
  try {
    const res = await apiFetch(context)(api);
    if (!res.ok) {
      console.warn(`[handler] GET /projects/current answered ${res.status}; the browser will load the project`);
      return null;
    }
    const json = (await res.json()) as { id: string; display_name: string; config: Record<string, unknown> };
    return { id: json.id, displayName: json.display_name, config: json.config };
  } catch (error) {
    console.warn("[handler] could not load the project; the browser will load it", error);
    return null;
  }
}

/** The internal project's handler pages. */
export async function loadHandlerData(request: Request, context: AppLoadContext): Promise<HandlerServerData> {
  const app = internalAppConfig(readPublishableClientKey(context));
  return {
    project: await loadProjectView(request, context, app),
    signedOut: !hasSessionCookie(request.headers.get("cookie")),
    origin: new URL(request.url).origin,
    ...requestLanguage(request),
  };
}
