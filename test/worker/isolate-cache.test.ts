/**
 * The isolate-cache primitive (worker/lib/isolate-cache.ts), alone: time comes from the caller, so
 * every case moves the clock by hand.
 */
import { describe, expect, it } from "vitest";
import { IsolateCache } from "../../worker/lib/isolate-cache";

describe("IsolateCache", () => {
  it("an entry is fresh for ttlMs after it was stored, and not before it (a clock moved backwards)", () => {
    const cache = new IsolateCache<string>({ ttlMs: 1000, maxEntries: 10 });
    cache.set("a", "A", 5000);
    expect(cache.get("a", 5000)).toBe("A");
    expect(cache.get("a", 5999)).toBe("A");
    expect(cache.get("a", 6000)).toBeUndefined();
    expect(cache.get("a", 4999)).toBeUndefined();
    expect(cache.get("b", 5000)).toBeUndefined();
  });

  it("ttlMs Infinity never expires, whatever the clock says", () => {
    const cache = new IsolateCache<number>({ ttlMs: Number.POSITIVE_INFINITY, maxEntries: 10 });
    cache.set("a", 1, 5000);
    expect(cache.get("a", 5000 + 10 ** 12)).toBe(1);
    expect(cache.get("a", 0)).toBe(1);
  });

  it("keeps at most maxEntries: the oldest stored goes first, a key set again counts as new", () => {
    const cache = new IsolateCache<number>({ ttlMs: 1000, maxEntries: 2 });
    cache.set("a", 1, 0);
    cache.set("b", 2, 0);
    cache.set("a", 3, 0);
    cache.set("c", 4, 0);
    expect(cache.size).toBe(2);
    expect(cache.get("b", 0)).toBeUndefined();
    expect(cache.get("a", 0)).toBe(3);
    expect(cache.get("c", 0)).toBe(4);
  });

  it("forget drops one key; forgetAll drops every key and bumps the epoch", () => {
    const cache = new IsolateCache<number>({ ttlMs: 1000, maxEntries: 10 });
    cache.set("a", 1, 0);
    cache.set("b", 2, 0);
    cache.forget("a");
    expect(cache.get("a", 0)).toBeUndefined();
    expect(cache.get("b", 0)).toBe(2);
    const before = cache.epoch;
    cache.forgetAll();
    expect(cache.epoch).toBe(before + 1);
    expect(cache.size).toBe(0);
  });

  it("a value read before a forgetAll is not stored (readAt is the epoch taken before the read)", () => {
    const cache = new IsolateCache<number>({ ttlMs: 1000, maxEntries: 10 });
    const readAt = cache.epoch;
    cache.forgetAll();
    expect(cache.set("a", 1, 0, readAt)).toBe(false);
    expect(cache.get("a", 0)).toBeUndefined();
    expect(cache.set("a", 1, 0, cache.epoch)).toBe(true);
    expect(cache.get("a", 0)).toBe(1);
  });

  it("getOrLoad loads once for concurrent callers, then serves the stored value until it expires", async () => {
    const cache = new IsolateCache<string>({ ttlMs: 1000, maxEntries: 10 });
    let loads = 0;
    const load = async () => {
      loads++;
      return `v${loads}`;
    };
    const [x, y] = await Promise.all([cache.getOrLoad("k", 0, load), cache.getOrLoad("k", 0, load)]);
    expect([x, y, loads]).toEqual(["v1", "v1", 1]);
    expect(await cache.getOrLoad("k", 999, load)).toBe("v1");
    expect(await cache.getOrLoad("k", 1000, load)).toBe("v2");
    expect(loads).toBe(2);
  });

  it("getOrLoad stores nothing for undefined, a rejection, or a load overtaken by forgetAll", async () => {
    const cache = new IsolateCache<string>({ ttlMs: 1000, maxEntries: 10 });
    expect(await cache.getOrLoad("none", 0, async () => undefined)).toBeUndefined();
    expect(cache.size).toBe(0);
    await expect(
      cache.getOrLoad("bad", 0, () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await cache.getOrLoad("bad", 0, async () => "ok")).toBe("ok");

    let release: (v: string) => void = () => {};
    const pending = cache.getOrLoad("late", 0, () => new Promise<string>((resolve) => (release = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 0));
    cache.forgetAll();
    release("stale");
    expect(await pending).toBe("stale");
    expect(cache.get("late", 0)).toBeUndefined();
  });
});
