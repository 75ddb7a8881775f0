/**
 * The per-app store of the current user, feeding `useUser`: loaded once, re-read when the
 * SDK's cache reports a change (when the app exposes a subscription) and when a component asks
 * for a refresh after a mutation. A failed read counts as signed out.
 */
import type { ReactStackApp, ReactUser } from "./app-types";
import { perApp, ReloadingStore } from "./reloading-store";

/** Optional cache hooks a client app may expose; used when present. */
type Subscribable = {
  _subscribeUser?: (callback: () => void) => () => void;
};

/** The one user store of an app (created on first use). */
export const getUserStore = perApp(
  (app: ReactStackApp) =>
    new ReloadingStore<ReactUser | null>(
      async () => {
        // A `hostedPages` app coming back from the hosted pages first takes the session they handed over.
        await app._hostedPagesCallbackOnce();
        return app.getUser();
      },
      null,
      "the current user",
      (reload) => {
        const sub = (app as ReactStackApp & Subscribable)._subscribeUser;
        return typeof sub === "function" ? [sub.call(app, reload)] : [];
      },
    ),
);
