/**
 * The last-known-good copy of the rows that authenticate a request (the project row and the key
 * hashes seen valid), in KV, read only when D1 fails: a cold isolate can still authenticate a
 * refresh during an outage. Secrets: only what D1 already holds in this form goes there (the
 * project row, whose secrets are sealed; key hashes, never keys).
 *
 * Written only when it changed, never per request: each isolate remembers what it last saw in KV
 * (one KV read per project when it first needs to know), and compares a project row D1 answered
 * (at most every AUTH_ROW_TTL_MS per isolate: the isolate cache answers in between) and a key D1
 * judged. KV allows about one write per second per key; a project's copy changes when its row or
 * keys do. A revoked key is dropped from the copy when D1 first refuses it, and the copy is
 * forgotten when a key set or the project changes (forgetLastKnownAuth).
 */
import type { KeyKind } from "../../db/queries/key-sets";
import type { ProjectRow } from "../../db/queries/projects";
import { outageAuthKey } from "../../kv/keys";
import { IsolateCache } from "../../lib/isolate-cache";
import type { Deps } from "../deps";

type LastKnown = { row: ProjectRow; keys: string[] };
type Seen = { row: ProjectRow; json: string; keys: Set<string> };

const kvKey = outageAuthKey;
/** Keys kept per project: the most recently seen valid ones (a project has a few key sets). */
const MAX_KEYS = 32;
/**
 * What this isolate knows KV holds, per project. Why 10 minutes: a copy another isolate forgot
 * (a revoked key) is read and rebuilt here within that time; one KV read per project and isolate.
 */
const SEEN_TTL_MS = 10 * 60_000;
const seen = new IsolateCache<Seen>({ ttlMs: SEEN_TTL_MS, maxEntries: 2_000 });
const keyName = (key: { kind: KeyKind; hash: string }) => `${key.kind}:${key.hash}`;

/**
 * After a D1 lookup: updates the copy if the row or this key's validity differs from what KV holds
 * (after the answer). The steady state is a reference compare (the isolate cache hands the same
 * row object back) and a set lookup.
 */
export function noteAuthRows(deps: Deps, row: ProjectRow, key: { kind: KeyKind; hash: string } | null, keyValid: boolean | null): void {
  const known = seen.get(row.id, deps.now());
  if (known && key === null && known.row === row) return;
  if (known && key !== null && known.row === row && known.keys.has(keyName(key)) === (keyValid === true)) return;
  if (known && known.row !== row && JSON.stringify(row) === known.json) {
    known.row = row;
    if (key === null || known.keys.has(keyName(key)) === (keyValid === true)) return;
  }
  deps.defer(update(deps, row, key, keyValid, known));
}

function next(keys: string[], key: { kind: KeyKind; hash: string } | null, keyValid: boolean | null): string[] {
  if (key && keyValid === true && !keys.includes(keyName(key))) return [...keys, keyName(key)].slice(-MAX_KEYS);
  if (key && keyValid === false) return keys.filter((k) => k !== keyName(key));
  return keys;
}

async function update(
  deps: Deps,
  row: ProjectRow,
  key: { kind: KeyKind; hash: string } | null,
  keyValid: boolean | null,
  known: Seen | undefined,
): Promise<void> {
  const stored = known ? { json: known.json, keys: [...known.keys] } : await readStored(deps, row.id);
  const keys = next(stored?.keys ?? [], key, keyValid);
  const json = JSON.stringify(row);
  const changed = !stored || stored.json !== json || keys.length !== stored.keys.length || keys.some((k, i) => stored.keys[i] !== k);
  if (changed) await deps.env.KV.put(kvKey(row.id), JSON.stringify({ row, keys } satisfies LastKnown));
  seen.set(row.id, { row, json, keys: new Set(keys) }, deps.now());
}

async function readStored(deps: Deps, projectId: string): Promise<{ json: string; keys: string[] } | null> {
  const stored = await deps.env.KV.get<LastKnown>(kvKey(projectId), "json");
  return stored ? { json: JSON.stringify(stored.row), keys: stored.keys } : null;
}

/** The copy, when D1 fails: the project row and whether the key was seen valid (null: no key sent). Null when none is kept. */
export async function lastKnownAuthRows(
  deps: Deps,
  projectId: string,
  key: { kind: KeyKind; hash: string } | null,
): Promise<{ project: ProjectRow; keyValid: boolean | null } | null> {
  const stored = await deps.env.KV.get<LastKnown>(kvKey(projectId), "json");
  if (!stored) return null;
  return { project: stored.row, keyValid: key ? stored.keys.includes(keyName(key)) : null };
}

/** A key set or the project changed: the copy is rebuilt from D1's next answers (a revoked key must not outlive its revocation). */
export function forgetLastKnownAuth(deps: Deps, projectId: string): void {
  seen.forget(projectId);
  deps.defer(deps.env.KV.delete(kvKey(projectId)));
}
