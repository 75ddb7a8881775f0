/**
 * A small async cache for GET-backed reads: concurrent reads share one fetch, a value is
 * re-fetched at most every 300 ms (throttle), subscribers hear about changes, and an entry is
 * dropped 5 s after its last subscriber leaves.
 */
import { CACHE_DROP_AFTER_MS, CACHE_THROTTLE_MS } from "./shared/constants";

type Entry<T> = {
  value?: T;
  fetchedAt: number;
  inFlight: Promise<T> | null;
  listeners: Set<() => void>;
  dropTimer: ReturnType<typeof setTimeout> | null;
};

export class AsyncCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly fetcher: (key: string) => Promise<T>,
    private readonly now: () => number = Date.now,
  ) {}

  private entry(key: string): Entry<T> {
    let e = this.entries.get(key);
    if (!e) {
      e = { fetchedAt: 0, inFlight: null, listeners: new Set(), dropTimer: null };
      this.entries.set(key, e);
    }
    return e;
  }

  /** The cached value if fresher than the throttle window, else a (shared) fetch. */
  get(key: string): Promise<T> {
    const e = this.entry(key);
    if ("value" in e && this.now() - e.fetchedAt < CACHE_THROTTLE_MS) return Promise.resolve(e.value as T);
    return this.fetch(key);
  }

  /** Last known value without fetching. */
  peek(key: string): T | undefined {
    return this.entries.get(key)?.value;
  }

  /** Fetches now (one at a time per key) and notifies subscribers. */
  refresh(key: string): Promise<T> {
    const e = this.entry(key);
    e.fetchedAt = 0;
    return this.fetch(key);
  }

  /** Sets a value directly (after a mutation that returned it) and notifies subscribers. */
  set(key: string, value: T): void {
    const e = this.entry(key);
    e.value = value;
    e.fetchedAt = this.now();
    for (const l of e.listeners) l();
  }

  invalidate(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    e.fetchedAt = 0;
    if (e.listeners.size > 0) void this.fetch(key).catch(() => undefined);
  }

  subscribe(key: string, listener: () => void): () => void {
    const e = this.entry(key);
    if (e.dropTimer) clearTimeout(e.dropTimer);
    e.dropTimer = null;
    e.listeners.add(listener);
    return () => {
      e.listeners.delete(listener);
      if (e.listeners.size === 0) {
        e.dropTimer = setTimeout(() => {
          if (e.listeners.size === 0) this.entries.delete(key);
        }, CACHE_DROP_AFTER_MS);
      }
    };
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  private fetch(key: string): Promise<T> {
    const e = this.entry(key);
    e.inFlight ??= this.fetcher(key)
      .then((value) => {
        e.value = value;
        e.fetchedAt = this.now();
        for (const l of e.listeners) l();
        return value;
      })
      .finally(() => {
        e.inFlight = null;
      });
    return e.inFlight;
  }
}
