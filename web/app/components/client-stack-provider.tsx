/**
 * Wraps the page in `StackProvider` once the client app exists. The app is created
 * after hydration (never on the server: `.client` modules are empty there), so the
 * server render shows the loader and the SDK-driven parts render in the browser.
 */
import { type ReactNode, useEffect, useState } from "react";
import { type ReactStackApp, StackLoading, StackProvider } from "../../../sdk/src/react";
// A static import (not import()): the module ships with the route's preloaded chunks, so
// no extra request can fail or be aborted by a navigation after the page has loaded.
import { getStackApp } from "../lib/stack-app.client";

export function ClientStackProvider({ publishableClientKey, children }: { publishableClientKey: string; children: ReactNode }) {
  const [app, setApp] = useState<ReactStackApp | null>(null);
  useEffect(() => {
    setApp(getStackApp(publishableClientKey));
  }, [publishableClientKey]);
  if (!app) return <StackLoading />;
  return <StackProvider app={app}>{children}</StackProvider>;
}
