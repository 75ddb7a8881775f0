/**
 * D1 read replication (the Sessions API), when the deployment turns it on (D1_READ_REPLICATION):
 * each request runs every query in one D1 session, so it is sequentially consistent in itself, and
 * its reads may be served by a replica near the user. A session starts from the caller's bookmark
 * (`x-doorman-d1-bookmark`, the one a previous answer carried), so a caller reads at least what it
 * wrote; without one, a read-only request may start anywhere and a write starts at the primary.
 */

export const D1_BOOKMARK_HEADER = "x-doorman-d1-bookmark";

// D1 bookmarks are hex groups joined by dashes; anything else is ignored (an unusable bookmark would fail the request's first query).
const BOOKMARK = /^[0-9a-f]{1,64}(-[0-9a-f]{1,64}){1,7}$/i;

export type D1RequestSession = { db: D1Database; bookmark: () => string | null };

/** A session over `d1` for one request. */
export function openD1Session(d1: D1Database, method: string, bookmark: string | undefined): D1RequestSession {
  const readOnly = method === "GET" || method === "HEAD" || method === "OPTIONS";
  const start = bookmark && BOOKMARK.test(bookmark) ? bookmark : readOnly ? "first-unconstrained" : "first-primary";
  const session = d1.withSession(start);
  // A session answers prepare and batch like the binding; nothing in a request uses exec or dump.
  return { db: session as unknown as D1Database, bookmark: () => session.getBookmark() };
}
