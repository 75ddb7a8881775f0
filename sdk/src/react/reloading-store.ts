/**
 * A tiny per-app store behind `useSyncExternalStore`: loads a value once (suspending the first
 * render), re-reads it when one of its sources reports a change, and keeps showing the old
 * value meanwhile. `useUser` and `useTeams` are two instances of it.
 */

export type Snapshot<T> = { status: "loading" } | { status: "ready"; value: T };

const LOADING = { status: "loading" } as const;

export class ReloadingStore<T> {
  private snapshot: Snapshot<T> = LOADING;
  private pending: Promise<void> | null = null;
  private readonly listeners = new Set<() => void>();
  private stopSources: (() => void)[] = [];

  /**
   * @param read loads the value
   * @param fallback shown when a read fails (rather than a page suspended forever)
   * @param what names the value in the warning a failed read logs
   * @param sources subscribes `reload` to whatever changes the value; returns the unsubscribers
   */
  constructor(
    private readonly read: () => Promise<T>,
    private readonly fallback: T,
    private readonly what: string,
    private readonly sources: (reload: () => void) => (() => void)[],
  ) {}

  getSnapshot = (): Snapshot<T> => this.snapshot;

  /** Loads the value if nothing is loaded yet; returns the in-flight load (for Suspense). */
  load(): Promise<void> {
    if (this.snapshot.status === "ready") return Promise.resolve();
    return this.pending ?? this.refresh();
  }

  /**
   * Starts with a value known without a read (e.g. "signed out" when the page had no session),
   * so the first render, on the server and in the browser alike, does not suspend. Only takes
   * effect before anything was loaded.
   */
  seed(value: T): void {
    if (this.snapshot.status === "loading" && !this.pending) this.snapshot = { status: "ready", value };
  }

  /** Re-reads the value; keeps showing the old one meanwhile. */
  refresh(): Promise<void> {
    const run = this.read()
      .then((value) => this.set({ status: "ready", value }))
      .catch((error: unknown) => {
        console.warn(`[doorman] could not load ${this.what}`, error);
        this.set({ status: "ready", value: this.fallback });
      })
      .finally(() => {
        if (this.pending === run) this.pending = null;
      });
    this.pending = run;
    return run;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.stopSources = this.sources(() => void this.refresh());
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) {
        for (const stop of this.stopSources) stop();
        this.stopSources = [];
      }
    };
  };

  private set(next: Snapshot<T>): void {
    this.snapshot = next;
    for (const listener of this.listeners) listener();
  }
}

/** One store per app object, created on first use. */
export function perApp<A extends object, S>(create: (app: A) => S): (app: A) => S {
  const stores = new WeakMap<A, S>();
  return (app) => {
    let store = stores.get(app);
    if (!store) {
      store = create(app);
      stores.set(app, store);
    }
    return store;
  };
}
