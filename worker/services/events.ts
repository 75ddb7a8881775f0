/**
 * The event log (issue 13): every state change that matters writes one event in the same D1 batch
 * as the change, so an event is never lost or invented. This file names the event types and builds
 * their rows; the actor, address and user agent come from the request (deps.audit).
 */
import type { EventType } from "@doorman/shared/event-types";
import {
  type EventRow,
  insertEventIfChangedStatement,
  insertEventStatement,
  insertEventUnlessSinceStatement,
  listEventRows,
  type NewEvent,
  pruneExpiredEventRows,
} from "../db/queries/events";
import { IsolateCache } from "../lib/isolate-cache";
import type { Deps } from "./deps";

/**
 * Every event type and the one action that writes it: the shared list (@doorman/shared/event-types),
 * grouped by area, which the console's Events page filters by.
 */
export { EVENT_TYPES, type EventType } from "@doorman/shared/event-types";
/** The sign-in methods recorded in `data.method` ("server": a session the back end created with its key). */
export const SIGN_IN_METHODS = ["password", "otp", "oauth", "passkey", "anonymous", "cli", "server", "sso"] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

export type EventSubject = { userId?: string | null; teamId?: string | null };

function eventRow(deps: Deps, projectId: string, type: EventType, subject: EventSubject, data?: Record<string, unknown>): NewEvent {
  const a = deps.audit;
  const id = deps.random.uuid();
  a.recorded.push({ id, projectId, type });
  return {
    id,
    projectId,
    type,
    createdAt: deps.now(),
    actorType: a.actorType,
    actorId: a.actorId,
    userId: subject.userId ?? null,
    teamId: subject.teamId ?? null,
    ip: a.ip,
    userAgent: a.userAgent,
    countryCode: a.countryCode,
    data: data ?? null,
  };
}

/** The insert of one event, for the batch of the change it records. */
export function eventStatement(deps: Deps, projectId: string, type: EventType, subject: EventSubject, data?: Record<string, unknown>) {
  return insertEventStatement(deps.db, eventRow(deps, projectId, type, subject, data));
}

/** The same, written only if the statement right before it in the batch changed a row (a delete that found nothing records nothing). */
export function eventIfChangedStatement(
  deps: Deps,
  projectId: string,
  type: EventType,
  subject: EventSubject,
  data?: Record<string, unknown>,
) {
  return insertEventIfChangedStatement(deps.db, eventRow(deps, projectId, type, subject, data));
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The user's `user.active` event of today (UTC), unless one exists: daily active users come from these. */
export function activityStatement(deps: Deps, projectId: string, userId: string) {
  const now = deps.now();
  return insertEventUnlessSinceStatement(
    deps.db,
    { ...eventRow(deps, projectId, "user.active", { userId }), userId },
    now - (now % DAY_MS),
  );
}

/** Users this isolate has recorded as active, with the day (UTC start) they were recorded for. */
// No TTL: the value is the day, compared below.
const recordedActive = new IsolateCache<number>({ ttlMs: Number.POSITIVE_INFINITY, maxEntries: 10_000 });

/**
 * After a refresh: the day's user.active, unless this isolate already wrote it today. The memo
 * only saves the probe (one indexed D1 read per refresh); the insert itself stays idempotent,
 * so another isolate or a lost memo costs a probe, never a second event.
 */
export function noteActivity(deps: Deps, projectId: string, userId: string): void {
  const now = deps.now();
  const day = now - (now % DAY_MS);
  const key = `${projectId}:${userId}`;
  if (recordedActive.get(key, now) === day) return;
  deps.defer(
    activityStatement(deps, projectId, userId)
      .run()
      .then(() => {
        recordedActive.set(key, day, now);
      }),
  );
}

/** An event row without its statement: for work that builds its batch elsewhere (the session Durable Object). */
export function eventFor(deps: Deps, projectId: string, type: EventType, subject: EventSubject, data?: Record<string, unknown>): NewEvent {
  return eventRow(deps, projectId, type, subject, data);
}

export type EventQuery = {
  /** One type, or any of a list. */
  type?: string | readonly string[];
  userId?: string;
  teamId?: string;
  since?: number;
  until?: number;
  cursor?: string;
  limit: number;
};

/** The cursor is "<created_at>.<id>" of the last event of the page before. */
function parseCursor(cursor: string | undefined): { createdAt: number; id: string } | undefined | null {
  if (cursor === undefined) return undefined;
  const at = cursor.indexOf(".");
  const createdAt = Number(cursor.slice(0, at));
  return at > 0 && Number.isSafeInteger(createdAt) ? { createdAt, id: cursor.slice(at + 1) } : null;
}

/** A page of the project's events, newest first, with the cursor of the next page; null for a malformed cursor. */
export async function listEvents(
  deps: Deps,
  projectId: string,
  q: EventQuery,
): Promise<{ items: EventRow[]; nextCursor: string | null } | null> {
  const before = parseCursor(q.cursor);
  if (before === null) return null;
  const rows = await listEventRows(deps.db, { projectId, ...q, before, limit: q.limit + 1 });
  const items = rows.slice(0, q.limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > q.limit && last ? `${last.createdAt}.${last.id}` : null };
}

export const DEFAULT_EVENT_RETENTION_DAYS = 90;

/** The daily retention run (cron trigger): every project's events older than its retention go. */
export function pruneExpiredEvents(deps: Deps): Promise<number> {
  return pruneExpiredEventRows(deps.db, deps.now(), DEFAULT_EVENT_RETENTION_DAYS);
}
