/**
 * The browser's client apps, created only in the browser (the token store is the browser's
 * cookies): the console's (the internal project) and, on hosted pages, the page's project's. One
 * app per config (see handler-app.ts), so two projects' sessions never share an app. Same origin:
 * the Pages function forwards /api/* to the API worker.
 */
import { StackClientApp } from "@doorman/sdk";
import { type HandlerAppConfig, handlerAppKey, handlerAppOptions } from "./handler-app";

const apps = new Map<string, StackClientApp>();

/** The client app of this page for `config` (created on first call). */
export function getStackApp(config: HandlerAppConfig): StackClientApp {
  const key = handlerAppKey(config);
  let app = apps.get(key);
  if (!app) {
    app = new StackClientApp({ ...handlerAppOptions(config, window.location.origin), tokenStore: "cookie" });
    apps.set(key, app);
  }
  return app;
}
