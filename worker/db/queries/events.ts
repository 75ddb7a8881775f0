/** Data access for the event log: one insert per change (for its batch), a filtered page, and the retention prune. */
import { and, desc, eq, gte, inArray, lt, lte, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../client";
import { events } from "../schema";

export type EventRow = typeof events.$inferSelect;
export type NewEvent = typeof events.$inferInsert;

export function insertEventStatement(db: Db, row: NewEvent) {
  return db.insert(events).values(row);
}

/**
 * The event, inserted only if the statement just before it in the same batch changed a row
 * (SQLite's changes()): a delete or update that matched nothing writes no event.
 */
export function insertEventIfChangedStatement(db: Db, row: NewEvent) {
  return insertEventWhereStatement(db, row, sql`changes() > 0`);
}

/**
 * The event, unless the same user already has one of its type since `since` (an indexed probe on
 * (project, user, created_at)): `user.active` is written at most once per user and day.
 */
export function insertEventUnlessSinceStatement(db: Db, row: NewEvent & { userId: string }, since: number) {
  return insertEventWhereStatement(
    db,
    row,
    sql`NOT EXISTS (SELECT 1 FROM ${events} WHERE ${events.projectId} = ${row.projectId} AND ${events.userId} = ${row.userId} AND ${events.createdAt} >= ${since} AND ${events.type} = ${row.type})`,
  );
}

function insertEventWhereStatement(db: Db, row: NewEvent, condition: SQL) {
  const v = <T>(value: T, name: string) => sql<T>`${value ?? null}`.as(name);
  const data = row.data === undefined || row.data === null ? null : JSON.stringify(row.data);
  return db.insert(events).select(
    db
      .select({
        id: v(row.id, "id"),
        projectId: v(row.projectId, "project_id"),
        type: v(row.type, "type"),
        createdAt: v(row.createdAt, "created_at"),
        actorType: v(row.actorType, "actor_type"),
        actorId: v(row.actorId, "actor_id"),
        userId: v(row.userId, "user_id"),
        teamId: v(row.teamId, "team_id"),
        ip: v(row.ip, "ip"),
        userAgent: v(row.userAgent, "user_agent"),
        countryCode: v(row.countryCode, "country_code"),
        data: v(data, "data"),
      })
      .from(sql`(SELECT 1) AS one`)
      .where(condition),
  );
}

export type EventFilter = {
  projectId: string;
  /** One type, or any of a list (an empty list matches nothing). */
  type?: string | readonly string[];
  userId?: string;
  teamId?: string;
  since?: number;
  until?: number;
  /** The (created_at, id) of the last event of the previous page. */
  before?: { createdAt: number; id: string };
  limit: number;
};

/** Newest first, keyset-paged on (created_at, id). */
export function listEventRows(db: Db, f: EventFilter): Promise<EventRow[]> {
  const where: SQL[] = [eq(events.projectId, f.projectId)];
  if (typeof f.type === "string") where.push(eq(events.type, f.type));
  else if (f.type) where.push(f.type.length ? inArray(events.type, [...f.type]) : sql`0`);
  if (f.userId) where.push(eq(events.userId, f.userId));
  if (f.teamId) where.push(eq(events.teamId, f.teamId));
  if (f.since !== undefined) where.push(gte(events.createdAt, f.since));
  if (f.until !== undefined) where.push(lte(events.createdAt, f.until));
  if (f.before) {
    const b = f.before;
    where.push(or(lt(events.createdAt, b.createdAt), and(eq(events.createdAt, b.createdAt), lt(events.id, b.id))) as SQL);
  }
  return db
    .select()
    .from(events)
    .where(and(...where))
    .orderBy(desc(events.createdAt), desc(events.id))
    .limit(f.limit)
    .all();
}

/**
 * Deletes, in every project, the events older than that project's `event_retention_days` (90 when
 * unset): one statement, so the daily prune costs one round trip whatever the number of projects.
 */
export async function pruneExpiredEventRows(db: Db, now: number, defaultDays: number): Promise<number> {
  const retention = sql`coalesce((SELECT json_extract(p.config, '$.event_retention_days') FROM projects p WHERE p.id = ${events.projectId}), ${defaultDays})`;
  const gone = await db.delete(events).where(sql`${events.createdAt} < ${now} - ${retention} * 86400000`).returning({ id: events.id });
  return gone.length;
}
