/** Token stores, access-token freshness and the read cache (pure units). */

import { KnownError } from "@doorman/shared/known-errors";
import { describe, expect, it, vi } from "vitest";
import { AsyncCache } from "../../sdk/src/cache";
import { accessTokenExpiry, Session } from "../../sdk/src/session/session";
import { type CookieJar, CookieTokenStore, createTokenStore, MemoryTokenStore } from "../../sdk/src/session/token-store";

function jwtWithExp(expSeconds: number): string {
  const enc = (o: unknown) => btoa(JSON.stringify(o)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
  return `${enc({ alg: "ES256" })}.${enc({ exp: expSeconds })}.sig`;
}

function jar(): CookieJar & { data: Map<string, { value: string; maxAge: number }> } {
  const data = new Map<string, { value: string; maxAge: number }>();
  return {
    data,
    get: (n) => data.get(n)?.value ?? null,
    set: (n, value, maxAge) => void data.set(n, { value, maxAge }),
    remove: (n) => void data.delete(n),
  };
}

describe("token stores", () => {
  it("cookie store names the refresh cookie by project and sets the max ages", () => {
    const j = jar();
    const store = new CookieTokenStore("proj", j);
    store.set({ accessToken: "a", refreshToken: "r" });
    expect(j.data.get("stack-refresh-proj")).toEqual({ value: "r", maxAge: 31_536_000 });
    expect(j.data.get("stack-access")).toEqual({ value: "a", maxAge: 86_400 });
    expect(store.get()).toEqual({ accessToken: "a", refreshToken: "r" });
    store.set({ accessToken: null, refreshToken: null });
    expect(j.data.size).toBe(0);
  });

  it("never keeps the literal text 'undefined' as a token", () => {
    const store = new MemoryTokenStore({ accessToken: "undefined", refreshToken: "undefined" });
    expect(store.get()).toEqual({ accessToken: null, refreshToken: null });
  });

  it("reads x-stack-auth from request-like objects (Headers or plain records)", () => {
    const value = JSON.stringify({ accessToken: "a", refreshToken: "r" });
    expect(createTokenStore({ headers: new Headers({ "x-stack-auth": value }) }, "p").get()).toEqual({
      accessToken: "a",
      refreshToken: "r",
    });
    expect(createTokenStore({ headers: { "x-stack-auth": value } }, "p").get()).toEqual({ accessToken: "a", refreshToken: "r" });
    expect(createTokenStore({ headers: { "x-stack-auth": "not json" } }, "p").get()).toEqual({ accessToken: null, refreshToken: null });
  });
});

describe("session freshness", () => {
  it("reads the JWT expiry", () => {
    expect(accessTokenExpiry(jwtWithExp(1000))).toBe(1_000_000);
    expect(accessTokenExpiry("garbage")).toBeNull();
  });

  it("refreshes when fewer than 20 s remain, sharing one in-flight refresh", async () => {
    let now = 1_000_000;
    let refreshes = 0;
    const store = new MemoryTokenStore({ accessToken: jwtWithExp(1_000 + 30), refreshToken: "r" });
    const session = new Session(
      store,
      async () => {
        refreshes++;
        return { accessToken: jwtWithExp(2_000) };
      },
      () => now,
    );
    expect(await session.getAccessToken()).toBe(jwtWithExp(1_030)); // 30 s left: fresh enough
    now += 15_000; // 15 s left
    const [a, b] = await Promise.all([session.getAccessToken(), session.getAccessToken()]);
    expect(a).toBe(jwtWithExp(2_000));
    expect(b).toBe(a);
    expect(refreshes).toBe(1);
  });

  it("a refresh-token error clears the session", async () => {
    const store = new MemoryTokenStore({ accessToken: null, refreshToken: "dead" });
    const session = new Session(store, async () => {
      throw new KnownError("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    });
    expect(await session.getAccessToken()).toBeNull();
    expect(session.isKnownInvalid()).toBe(true);
  });
});

describe("cache", () => {
  it("throttles fetches to one per 300 ms and shares in-flight reads", async () => {
    let now = 0;
    let fetches = 0;
    const cache = new AsyncCache(
      async () => {
        fetches++;
        return fetches;
      },
      () => now,
    );
    const [a, b] = await Promise.all([cache.get("k"), cache.get("k")]);
    expect([a, b, fetches]).toEqual([1, 1, 1]);
    now += 100;
    expect(await cache.get("k")).toBe(1);
    now += 300;
    expect(await cache.get("k")).toBe(2);
  });

  it("notifies subscribers and drops an entry 5 s after the last one leaves", async () => {
    vi.useFakeTimers();
    const cache = new AsyncCache(async () => "v");
    let heard = 0;
    const off = cache.subscribe("k", () => heard++);
    await cache.refresh("k");
    expect(heard).toBe(1);
    off();
    expect(cache.has("k")).toBe(true);
    vi.advanceTimersByTime(4_900);
    expect(cache.has("k")).toBe(true);
    vi.advanceTimersByTime(200);
    expect(cache.has("k")).toBe(false);
    vi.useRealTimers();
  });
});
