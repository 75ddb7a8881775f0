/**
 * The dashboard's client app for the internal project, created once per page load and
 * only in the browser (the token store is the browser's cookies). Same origin: the
 * Pages function forwards /api/* to the API worker.
 */
import { StackClientApp } from "@doorman/sdk";
import { INTERNAL_PROJECT_ID } from "@doorman/shared/constants";
import { HANDLER_APP_URLS } from "./handler-app";

let app: StackClientApp | null = null;

/** The one client app of this page (created on first call). */
export function getStackApp(publishableClientKey: string): StackClientApp {
  app ??= new StackClientApp({
    projectId: INTERNAL_PROJECT_ID,
    publishableClientKey,
    baseUrl: window.location.origin,
    tokenStore: "cookie",
    // The same URLs as the app that renders the handler pages on the server.
    urls: HANDLER_APP_URLS,
  });
  return app;
}
