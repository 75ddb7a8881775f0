/**
 * A signing key of its own for one kind of token (unsubscribe links, webhook-portal tokens), derived
 * from the server secret: SHA-256 of `doorman-<purpose>-token:v1:<secret>`. Separate keys mean a token
 * of one kind can never pass as another kind or as an access token.
 */
import { IsolateCache } from "../lib/isolate-cache";

// Derived from the purpose and secret alone (no TTL); the promise is kept, so concurrent callers share one digest.
const keys = new IsolateCache<Promise<Uint8Array>>({ ttlMs: Number.POSITIVE_INFINITY, maxEntries: 16 });

export function tokenKeyFor(purpose: "unsubscribe" | "webhooks", secret: string): Promise<Uint8Array> {
  const id = `${purpose}:${secret}`;
  let key = keys.get(id, 0);
  if (!key) {
    key = crypto.subtle.digest("SHA-256", new TextEncoder().encode(`doorman-${purpose}-token:v1:${secret}`)).then((d) => new Uint8Array(d));
    keys.set(id, key, 0);
  }
  return key;
}
