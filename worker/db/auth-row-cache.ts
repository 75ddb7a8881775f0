/**
 * The isolate's short memory of the rows every authenticated request reads first: a project's row
 * and which key hashes are valid keys of it. Refresh is the hottest write path, and with these
 * remembered its only D1 round trip is its own batch (npm run bench:peer: 347 → 502 req/s).
 *
 * - Only found rows are kept (a missing project or an unknown key is asked again every time), so a
 *   new project or key works at once everywhere.
 * - Every write to a project row or a key set in this isolate forgets everything (db/queries call
 *   forgetAuthRows after the write), so this isolate sees its own changes at once; a lookup that
 *   was already reading when a write forgot stores nothing (the epoch).
 * - Why 5 s: a change made through another isolate (a config change, a revoked key, a deleted
 *   project) reaches this one within AUTH_ROW_TTL_MS; that is the staleness the cache buys its
 *   speed with (docs/security.md, "Isolate caches").
 */
import { IsolateCache } from "../lib/isolate-cache";
import type { projects } from "./schema";

type ProjectRow = typeof projects.$inferSelect;

export const AUTH_ROW_TTL_MS = 5_000;
// Bounded: an isolate serving many projects drops its oldest entries rather than grow.
const MAX_ENTRIES = 2_000;

// Forgotten only together (forgetAuthRows), so their epochs move together: authRowEpoch reads either.
const projectRows = new IsolateCache<ProjectRow>({ ttlMs: AUTH_ROW_TTL_MS, maxEntries: MAX_ENTRIES });
const validKeys = new IsolateCache<true>({ ttlMs: AUTH_ROW_TTL_MS, maxEntries: MAX_ENTRIES });

/** Taken before a lookup reads D1, handed back when it remembers what it read. */
export function authRowEpoch(): number {
  return projectRows.epoch;
}

const keyId = (projectId: string, kind: string, hash: string) => `${projectId}\n${kind}\n${hash}`;

export function cachedProjectRow(projectId: string, now: number): ProjectRow | undefined {
  return projectRows.get(projectId, now);
}

export function rememberProjectRow(row: ProjectRow, now: number, readAt: number): void {
  projectRows.set(row.id, row, now, readAt);
}

export function cachedKeyIsValid(projectId: string, kind: string, hash: string, now: number): boolean {
  return validKeys.get(keyId(projectId, kind, hash), now) === true;
}

export function rememberValidKey(projectId: string, kind: string, hash: string, now: number, readAt: number): void {
  validKeys.set(keyId(projectId, kind, hash), true, now, readAt);
}

/** After any write to a project row or a key set: this isolate asks D1 again. */
export function forgetAuthRows(): void {
  projectRows.forgetAll();
  validKeys.forgetAll();
}
