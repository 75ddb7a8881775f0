/**
 * What a handler pages' app is made of: one config (`HandlerAppConfig`, serialisable, from the
 * route's loader) shared by the browser's client app (stack-app.client.ts) and the one used for
 * server rendering, so both render the same links. The internal project's pages use
 * `internalAppConfig`; a project's hosted pages get theirs from hosted-pages.server.ts.
 */
import { StackClientApp } from "@doorman/sdk";
import { DEFAULT_HANDLER_PATH, INTERNAL_PROJECT_ID } from "@doorman/shared/constants";
import { hostedCookieJar } from "./hosted-cookies";

/** A new account lands on its settings; sign-in returns to the dashboard (or after_auth_return_to). */
export const HANDLER_APP_URLS = { afterSignUp: "/handler/account-settings", afterSignIn: "/projects" } as const;

export type HandlerAppConfig = {
  projectId: string;
  publishableClientKey: string;
  /** Where the pages are mounted: "/handler", or "/p/{projectId}/handler" on Doorman's origin. */
  basePath: string;
  /** Hosted pages keep their own session cookies (per-project names, this Path); null = the SDK's (the console's). */
  cookiePath: string | null;
  urls: { afterSignIn: string; afterSignUp: string; afterSignOut?: string; home?: string };
  /** Origins besides the page's own that redirects may go to (the project's app). */
  trustedOrigins: string[];
};

/** The internal project's pages and the console: the SDK's default cookies, back to the dashboard. */
export function internalAppConfig(publishableClientKey: string): HandlerAppConfig {
  return {
    projectId: INTERNAL_PROJECT_ID,
    publishableClientKey,
    basePath: DEFAULT_HANDLER_PATH,
    cookiePath: null,
    urls: HANDLER_APP_URLS,
    trustedOrigins: [],
  };
}

/** A stable key of a config: the browser keeps one app per key. */
export function handlerAppKey(config: HandlerAppConfig): string {
  return JSON.stringify(config);
}

/** The options of a client app for `config`, on `origin` (the Pages function forwards /api/* there). */
export function handlerAppOptions(config: HandlerAppConfig, origin: string) {
  return {
    projectId: config.projectId,
    publishableClientKey: config.publishableClientKey,
    baseUrl: origin,
    urls: { handler: config.basePath, ...config.urls },
    trustedOrigins: config.trustedOrigins,
    ...(config.cookiePath !== null ? { cookieJar: hostedCookieJar(config.projectId, config.cookiePath) } : {}),
  };
}

/**
 * A client app for rendering handler pages on the server: no tokens (the browser's app owns the
 * session), no redirects. Its methods are never called during a render; only `urls` is read.
 */
export function createServerRenderApp(config: HandlerAppConfig, origin: string): StackClientApp {
  return new StackClientApp({ ...handlerAppOptions(config, origin), tokenStore: null, redirectMethod: "none" });
}
