/**
 * `StackProvider` puts a client app into React context; `useStackApp` reads it back.
 * The provider also renders the components' stylesheet and a Suspense boundary, since
 * `useUser` suspends while the first user read is in flight.
 */
import { createContext, type ReactNode, Suspense, useContext } from "react";
import type { ReactStackApp } from "./app-types";
import { StackStyles } from "./styles";

const StackAppContext = createContext<ReactStackApp | null>(null);

export type StackProviderProps = {
  /** The client app, e.g. `new StackClientApp({...})`. Create it once, in the browser. */
  app: ReactStackApp;
  children: ReactNode;
  /** Shown while the current user is loading. */
  fallback?: ReactNode;
};

/**
 * Makes `app` available to hooks and components below it.
 *
 * @example
 * const app = new StackClientApp({ projectId, publishableClientKey, tokenStore: "cookie" });
 * <StackProvider app={app}><AccountSettings /></StackProvider>
 */
export function StackProvider({ app, children, fallback }: StackProviderProps) {
  return (
    <StackAppContext.Provider value={app}>
      <StackStyles />
      <Suspense fallback={fallback ?? <StackLoading />}>{children}</Suspense>
    </StackAppContext.Provider>
  );
}

/**
 * The app given to the nearest `StackProvider`.
 *
 * @example
 * const app = useStackApp();
 * await app.signOut();
 */
export function useStackApp<App extends ReactStackApp = ReactStackApp>(): App {
  const app = useContext(StackAppContext);
  if (!app) throw new Error("useStackApp must be used inside <StackProvider app={...}>.");
  return app as App;
}

/**
 * True when a `StackProvider` is above (lets `StackHandler` reuse an outer one).
 *
 * @example
 * const nested = useHasStackApp();
 */
export function useHasStackApp(): boolean {
  return useContext(StackAppContext) !== null;
}

/**
 * The default loading indicator (also the provider's Suspense fallback).
 *
 * @example
 * if (!app) return <StackLoading />;
 */
export function StackLoading() {
  return (
    <div className="stack-loading" role="status" aria-live="polite">
      Loading…
    </div>
  );
}
