/**
 * The one primitive for isolate state that is a cache: a map kept per isolate (module level), whose
 * entries live at most `ttlMs` and of which at most `maxEntries` are kept (the oldest stored goes
 * first). docs/storage.md ("Isolate caches") lists every cache built on it and what forgets each.
 *
 * - Time is the caller's: every read and write takes `now` (deps.now() in a service), so tests move
 *   the clock instead of sleeping. An entry is fresh while `now` is within `ttlMs` after it was
 *   stored; a clock moved backwards is not fresh. `ttlMs: Infinity` never expires (a key that
 *   carries its own version, or a value derived from its key alone).
 * - `forgetAll` drops everything and bumps the epoch: a loader that began before it (it took `epoch`
 *   first) stores nothing, so a write that forgot is never undone by a read that was in flight.
 * - `getOrLoad` de-duplicates concurrent loads of one key: they share one promise. A load that
 *   rejects, or resolves to undefined, stores nothing.
 */
export type IsolateCacheOptions = {
  /** How long an entry is used after it was stored, in ms (Infinity: until forgotten or evicted). */
  ttlMs: number;
  /** Entries kept per isolate; past it, the oldest stored goes. */
  maxEntries: number;
};

type Entry<V> = { value: V; storedAt: number };

export class IsolateCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly loading = new Map<string, Promise<V | undefined>>();
  private currentEpoch = 0;

  constructor(private readonly options: IsolateCacheOptions) {}

  /** Bumped by every forgetAll: take it before reading the source, hand it to `set` as `readAt`. */
  get epoch(): number {
    return this.currentEpoch;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value while fresh at `now`, else undefined. */
  get(key: string, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const { ttlMs } = this.options;
    const fresh = ttlMs === Number.POSITIVE_INFINITY || (now >= entry.storedAt && now - entry.storedAt < ttlMs);
    return fresh ? entry.value : undefined;
  }

  /**
   * Keeps `value` as stored at `now` (a key set again moves to the newest), unless `readAt` is given
   * and a forgetAll happened since (the value may predate a write). Returns whether it was kept.
   */
  set(key: string, value: V, now: number, readAt?: number): boolean {
    if (readAt !== undefined && readAt !== this.currentEpoch) return false;
    this.entries.delete(key);
    this.entries.set(key, { value, storedAt: now });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    return true;
  }

  /** Drops one key. */
  forget(key: string): void {
    this.entries.delete(key);
  }

  /** Drops everything and bumps the epoch (loads in flight will not store what they read). */
  forgetAll(): void {
    this.currentEpoch++;
    this.entries.clear();
    this.loading.clear();
  }

  /**
   * The fresh value, or the one `load` gives (stored at `now` if defined and no forgetAll happened
   * meanwhile). Concurrent calls for one key while a load runs share it.
   */
  getOrLoad(key: string, now: number, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const hit = this.get(key, now);
    if (hit !== undefined) return Promise.resolve(hit);
    const running = this.loading.get(key);
    if (running) return running;
    const readAt = this.currentEpoch;
    // Why .then(load): a load that throws at once still settles this promise, after it is registered.
    const promise: Promise<V | undefined> = Promise.resolve()
      .then(load)
      .then((value) => {
        if (value !== undefined) this.set(key, value, now, readAt);
        return value;
      })
      .finally(() => {
        if (this.loading.get(key) === promise) this.loading.delete(key);
      });
    this.loading.set(key, promise);
    return promise;
  }
}
