/**
 * A small least-recently-used map, kept per isolate, bounded by entries AND by bytes: each value
 * carries its size (the caller's estimate), a value larger than `maxEntryBytes` is not kept, and the
 * oldest entries go until the total fits `maxBytes`. A Map's insertion order is the recency order.
 */
export type LruLimits = { maxEntries: number; maxBytes: number; maxEntryBytes: number };

export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private total = 0;
  constructor(private readonly limits: LruLimits) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` (of about `bytes` bytes) unless it alone passes maxEntryBytes; returns whether it was kept. */
  set(key: string, value: V, bytes: number): boolean {
    this.delete(key);
    if (bytes > this.limits.maxEntryBytes) return false;
    this.entries.set(key, { value, bytes });
    this.total += bytes;
    while (this.entries.size > this.limits.maxEntries || this.total > this.limits.maxBytes) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.delete(oldest);
    }
    return true;
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.total -= entry.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The sum of the kept values' sizes. */
  get bytes(): number {
    return this.total;
  }
}
