/**
 * A tiny per-app store for the current user, feeding `useUser` through
 * `useSyncExternalStore`. It loads the user once, re-reads it when the SDK's cache
 * reports a change (when the app exposes a subscription) and when a component asks
 * for a refresh after a mutation.
 */
import type { ReactStackApp, ReactUser } from "./app-types";

export type UserSnapshot = { status: "loading" } | { status: "ready"; user: ReactUser | null };

/** Optional cache hooks a client app may expose; used when present. */
type Subscribable = {
  _subscribeUser?: (callback: () => void) => () => void;
};

const LOADING: UserSnapshot = { status: "loading" };

export class UserStore {
  private snapshot: UserSnapshot = LOADING;
  private pending: Promise<void> | null = null;
  private readonly listeners = new Set<() => void>();
  private unsubscribeApp: (() => void) | null = null;

  constructor(private readonly app: ReactStackApp) {}

  getSnapshot = (): UserSnapshot => this.snapshot;

  /** Loads the user if nothing is loaded yet; returns the in-flight load (for Suspense). */
  load(): Promise<void> {
    if (this.snapshot.status === "ready") return Promise.resolve();
    return this.pending ?? this.refresh();
  }

  /** Re-reads the user from the app; keeps showing the old one meanwhile. */
  refresh(): Promise<void> {
    const run = this.app
      .getUser()
      .then((user) => this.set({ status: "ready", user }))
      .catch((error: unknown) => {
        // A failed read counts as signed out rather than leaving the page suspended forever.
        console.warn("[doorman] could not load the current user", error);
        this.set({ status: "ready", user: null });
      })
      .finally(() => {
        if (this.pending === run) this.pending = null;
      });
    this.pending = run;
    return run;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (this.listeners.size === 1) {
      const sub = (this.app as ReactStackApp & Subscribable)._subscribeUser;
      if (typeof sub === "function") this.unsubscribeApp = sub.call(this.app, () => void this.refresh());
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) {
        this.unsubscribeApp?.();
        this.unsubscribeApp = null;
      }
    };
  };

  private set(next: UserSnapshot): void {
    this.snapshot = next;
    for (const listener of this.listeners) listener();
  }
}

const stores = new WeakMap<ReactStackApp, UserStore>();

/** The one store of an app (created on first use). */
export function getUserStore(app: ReactStackApp): UserStore {
  let store = stores.get(app);
  if (!store) {
    store = new UserStore(app);
    stores.set(app, store);
  }
  return store;
}
