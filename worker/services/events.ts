/**
 * The event log (issue 13): every state change that matters writes one event in the same D1 batch
 * as the change, so an event is never lost or invented. This file names the event types and builds
 * their rows; the actor, address and user agent come from the request (deps.audit).
 */
import {
  type EventRow,
  insertEventIfChangedStatement,
  insertEventStatement,
  listEventRows,
  type NewEvent,
  pruneExpiredEventRows,
} from "../db/queries/events";
import type { Deps } from "../lib/context";

/** The types written so far; the names of the reference's webhook events where one exists. */
export const EVENT_TYPES = [
  "user.created",
  "user.updated",
  "user.deleted",
  "team.created",
  "team.updated",
  "team.deleted",
  "team_membership.created",
  "team_membership.deleted",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export type EventSubject = { userId?: string | null; teamId?: string | null };

function eventRow(deps: Deps, projectId: string, type: EventType, subject: EventSubject, data?: Record<string, unknown>): NewEvent {
  const a = deps.audit;
  return {
    id: deps.random.uuid(),
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

export type EventQuery = {
  type?: string;
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
