/**
 * Wraps the page in `StackProvider`. The browser's app (cookie sessions) exists only in the
 * browser (`.client` modules are empty on the server). Most pages render the loader on the server
 * and create the app after hydration. Routes whose `handle` says `stackServerRender` (the handler
 * pages) render on the server instead: with an app that only supplies URLs, the project their
 * loader read, and "signed out" when the request had no session cookie; the browser hydrates the
 * same markup with its real app, created at once. The app is the project's of the route's server
 * data (a hosted page's project), else the internal project's (the console's).
 */

import { StackProvider } from "@doorman/sdk/react";
import { useMatches } from "@remix-run/react";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { createServerRenderApp, type HandlerAppConfig, handlerAppKey, internalAppConfig } from "../lib/handler-app";
import type { HandlerServerData } from "../lib/handler-data.server";
// A static import (not import()): the module ships with the route's preloaded chunks, so
// no extra request can fail or be aborted by a navigation after the page has loaded.
import { getStackApp } from "../lib/stack-app.client";
import { ConsoleLoading } from "./console-frame";

/** The `handle` of a route that renders its SDK components on the server. */
export type StackServerRenderHandle = { stackServerRender: true };

/** The server data of the current route, when it asks to be rendered on the server. */
export function useServerRenderData(): HandlerServerData | null {
  const match = useMatches().find((m) => (m.handle as Partial<StackServerRenderHandle> | undefined)?.stackServerRender === true);
  return (match?.data as HandlerServerData | undefined) ?? null;
}

export function ClientStackProvider({ publishableClientKey, children }: { publishableClientKey: string; children: ReactNode }) {
  const server = useServerRenderData();
  const inBrowser = typeof window !== "undefined";
  const configKey = handlerAppKey(server?.app ?? internalAppConfig(publishableClientKey));
  // Parsed back from its key, so a new object from the same data is the same app.
  const config = useMemo(() => JSON.parse(configKey) as HandlerAppConfig, [configKey]);
  // A server-rendered page hydrates with the real app at once (the markup is the same: only
  // `urls` is read while rendering); other pages create it after hydration, as before.
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const app = inBrowser && (server || mounted) ? getStackApp(config) : null;
  const renderApp = useMemo(
    () => (server && !inBrowser ? createServerRenderApp(config, server.origin) : null),
    [server, inBrowser, config],
  );

  const current = app ?? renderApp;
  // Keyed by the app's config: another project's page (or another return target) gets a fresh provider.
  if (server && current) {
    return (
      // The loader's locale (Accept-Language) and its catalogue on both sides, so hydration matches;
      // pages whose loader gives none (the purchase page) stay English, as does the console.
      <StackProvider
        key={configKey}
        app={current}
        initialProject={server.project}
        signedOut={server.signedOut}
        locale={server.locale ?? "en"}
        translations={server.translations}
      >
        {children}
      </StackProvider>
    );
  }
  // Until the app exists (and on the server): console pages show their frame and navigation (issue 28).
  if (!app) return <ConsoleLoading />;
  return (
    <StackProvider key={configKey} app={app}>
      {children}
    </StackProvider>
  );
}
