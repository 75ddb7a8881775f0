/**
 * What the server knows before rendering a handler page: the internal project's client view
 * (which sign-in methods are on, its name), whether the request carries any session cookie, and
 * the reader's language (Accept-Language), so the server renders what the browser will hydrate.
 */

import { parseAcceptLanguage, resolveLocale, SDK_LOCALES, type StackProjectView, type Translations } from "@doorman/sdk/react";
import { allLocales } from "@doorman/sdk/react/i18n/locales";
import { INTERNAL_PROJECT_ID } from "@doorman/shared/constants";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { readPublishableClientKey } from "./env.server";
import { hasSessionCookie } from "./handler-session";

export type HandlerServerData = {
  /** The project, or null when it could not be read (the browser then loads it). */
  project: StackProjectView | null;
  /** True when the request has no session cookie: nobody is signed in. */
  signedOut: boolean;
  /** The page's origin (the server-render app's base URL). */
  origin: string;
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

/** GET /api/v1/projects/current through the API service binding (same origin when there is none). */
async function loadProject(request: Request, context: AppLoadContext): Promise<StackProjectView | null> {
  const url = new URL("/api/v1/projects/current", request.url);
  const api = new Request(url, {
    headers: {
      "x-stack-project-id": INTERNAL_PROJECT_ID,
      "x-stack-access-type": "client",
      "x-stack-publishable-client-key": readPublishableClientKey(context),
    },
  });
  try {
    const binding = context.cloudflare?.env?.API;
    const res = await (binding ? binding.fetch(api) : fetch(api));
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

export async function loadHandlerData(request: Request, context: AppLoadContext): Promise<HandlerServerData> {
  const locale = requestLocale(request);
  const catalogue = allLocales[locale];
  return {
    project: await loadProject(request, context),
    signedOut: !hasSessionCookie(request.headers.get("cookie")),
    origin: new URL(request.url).origin,
    locale,
    ...(locale !== "en" && catalogue ? { translations: { [locale]: catalogue } } : {}),
  };
}
