/**
 * `StackProvider` puts a client app into React context; `useStackApp` reads it back.
 * The provider also renders the components' stylesheet and a Suspense boundary, since
 * `useUser` suspends while the first user read is in flight. For server rendering it takes
 * what the server already knows: the project (so forms show the enabled sign-in methods) and
 * that nobody is signed in (so `useUser` answers null at once instead of suspending).
 */
import { createContext, type ReactNode, Suspense, useContext, useEffect } from "react";
import type { ReactStackApp } from "./app-types";
import { StackStyles } from "./styles";
import { getUserStore } from "./user-store";

const StackAppContext = createContext<ReactStackApp | null>(null);

/** The project's client view (GET /projects/current), as `app.getProject()` returns it. */
export type StackProjectView = { id: string; displayName: string; config: Record<string, unknown> };

/** The project given to the provider (read by `useProject`), or null. */
export const InitialProjectContext = createContext<StackProjectView | null>(null);

export type StackProviderProps = {
  /** The client app, e.g. `new StackClientApp({...})`. Create it once, in the browser. */
  app: ReactStackApp;
  children: ReactNode;
  /** Shown while the current user is loading. */
  fallback?: ReactNode;
  /** The project, already loaded (e.g. by a server loader): components need not fetch it. */
  initialProject?: StackProjectView | null;
  /**
   * True when the page was requested without any session cookie: the user starts as null (no
   * suspense, so the server renders the signed-out form), then is re-read in the background.
   */
  signedOut?: boolean;
};

/**
 * Makes `app` available to hooks and components below it.
 *
 * @example
 * const app = new StackClientApp({ projectId, publishableClientKey, tokenStore: "cookie" });
 * <StackProvider app={app}><AccountSettings /></StackProvider>
 */
export function StackProvider({ app, children, fallback, initialProject = null, signedOut = false }: StackProviderProps) {
  // Idempotent: only fills a store that has not loaded anything yet.
  if (signedOut) getUserStore(app).seed(null);
  useEffect(() => {
    // Confirms the seeded "signed out" with a real read (the cookies the server saw may be gone).
    if (signedOut) void getUserStore(app).refresh();
  }, [app, signedOut]);
  return (
    <StackAppContext.Provider value={app}>
      <InitialProjectContext.Provider value={initialProject}>
        <StackStyles />
        <Suspense fallback={fallback ?? <StackLoading />}>{children}</Suspense>
      </InitialProjectContext.Provider>
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
