/**
 * The app's router with a per-isolate cache of match results by method and path. Hono's
 * RegExpRouter refuses this route table (a static segment beside a parameter, as /users/me beside
 * /users/{userId}), so SmartRouter falls back to the TrieRouter, whose search was ~0.17 ms of
 * every request (docs/perf). A match depends only on the route table, fixed once the app is
 * built, so the same path answers the same match: hot paths (/users/me, the refresh) hit the cache.
 */
import type { Result, Router } from "hono/router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";

/** Entries kept; paths with ids are many, so the cache is dropped whole when full (cheap and bounded). */
const MAX_ENTRIES = 2_000;

export class CachedRouter<T> implements Router<T> {
  name = "CachedRouter";
  readonly #inner: Router<T> = new SmartRouter<T>({ routers: [new RegExpRouter<T>(), new TrieRouter<T>()] });
  readonly #cache = new Map<string, Result<T>>();

  add(method: string, path: string, handler: T): void {
    this.#cache.clear();
    this.#inner.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    const key = `${method} ${path}`;
    let result = this.#cache.get(key);
    if (!result) {
      result = this.#inner.match(method, path);
      if (this.#cache.size >= MAX_ENTRIES) this.#cache.clear();
      this.#cache.set(key, result);
    }
    return result;
  }
}
